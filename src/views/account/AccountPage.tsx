import { useShell } from '../shell/contexts'
import { PageHeading } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { AccessTokens, type AccessTokensActorRef } from './AccessTokens'
import { ProfileForm, type ProfileActorRef } from './ProfileForm'
import { ThemeList } from './ThemeList'

export function AccountPage({ tokens, profile }: { tokens: AccessTokensActorRef; profile: ProfileActorRef }) {
  useDocumentTitle('Account preferences')
  const { theme } = useShell()
  return (
    <div className="mx-auto w-full max-w-4xl space-y-10 px-6 py-8">
      <PageHeading title="Account preferences" />
      <section aria-labelledby="profile-heading" className="space-y-3">
        <h2 id="profile-heading" className="text-lg font-semibold">
          Profile
        </h2>
        <ProfileForm profile={profile} />
      </section>
      <section aria-labelledby="theme-heading" className="space-y-3">
        <h2 id="theme-heading" className="text-lg font-semibold">
          Appearance
        </h2>
        <p className="text-sm text-neutral-500 dark:text-neutral-400">Choose how the dashboard looks on this device.</p>
        <ThemeList theme={theme} />
      </section>
      <section aria-labelledby="tokens-heading" className="space-y-3">
        <h2 id="tokens-heading" className="text-lg font-semibold">
          Access tokens
        </h2>
        <p className="text-sm text-neutral-500 dark:text-neutral-400">
          Personal access tokens authenticate the Management API (<code className="font-mono">/v1</code>) as you.
        </p>
        <AccessTokens tokens={tokens} />
      </section>
    </div>
  )
}
