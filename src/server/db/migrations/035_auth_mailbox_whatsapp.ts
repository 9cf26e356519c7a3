/**
 * A message of a project's local mailbox may be a WhatsApp message: auth-js asks for a phone code by `channel:
 * 'whatsapp'` as well as by text message, and the mailbox, standing in for the messaging provider, keeps which.
 */
export default /* sql */ `
alter table project_auth_mailbox drop constraint if exists project_auth_mailbox_channel_check;
alter table project_auth_mailbox add constraint project_auth_mailbox_channel_check check (channel in ('email', 'sms', 'whatsapp'));
`
