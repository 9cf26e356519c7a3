/**
 * The GitHub install popup's page (spec 9: the dashboard opens it 600x800, centred): the person confirms, the page's
 * script records the authorization and the installation (POST installations, JSON, same origin), tells its opener
 * (postMessage, InstallPopupMessage, to its own origin only) and closes itself. No inline script or style: the
 * Content-Security-Policy allows only this server's files, so the script and the stylesheet are files beside it.
 */
export const INSTALL_SCRIPT_PATH = '/platform/integrations/github/install.js'
export const INSTALL_STYLE_PATH = '/platform/integrations/github/install.css'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

export type InstallPageState =
  | { kind: 'missing'; slug: string }
  | { kind: 'forbidden' | 'confirm'; slug: string; name: string; installed: boolean }

function body(state: InstallPageState): string {
  if (state.kind === 'missing') {
    return `<h1>Organization not found</h1>
<p>There is no organization '${escapeHtml(state.slug)}' you belong to.</p>
<button type="button" id="close">Close</button>`
  }
  const name = escapeHtml(state.name)
  if (state.kind === 'forbidden') {
    return `<h1>Install GitHub</h1>
<p role="alert">Your role in ${name} is Read-only: ask an Owner or a Developer to install GitHub.</p>
<button type="button" id="close">Close</button>`
  }
  const slug = escapeHtml(state.slug)
  return `<h1>${state.installed ? 'Authorize GitHub' : 'Install GitHub'}</h1>
<p>${
    state.installed
      ? `GitHub is installed in ${name}. Authorize it for your account to link its repositories to projects.`
      : `Install GitHub in ${name} and authorize it for your account. Its repositories live on this platform under <code>${slug}/</code>.`
  }</p>
<p>Push a repository of your own with <code>git push &lt;this server&gt;/git/${slug}/&lt;name&gt;.git</code>, a personal access token as the password.</p>
<p role="alert" id="error" hidden></p>
<p role="status" id="done" hidden>Installed. You can close this window.</p>
<div class="actions">
<button type="button" id="install">${state.installed ? 'Authorize' : 'Install &amp; Authorize'}</button>
<button type="button" id="close">Cancel</button>
</div>`
}

export function installPage(state: InstallPageState): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Install GitHub</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="install.css">
<script src="install.js" defer></script></head>
<body><main data-organization-slug="${escapeHtml(state.slug)}">
${body(state)}
</main></body></html>`
}

export const installStyle = `body{font-family:system-ui,sans-serif;margin:0;background:#f8f9fa;color:#1c1c1c}
main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #dfe3e6;border-radius:8px}
h1{font-size:1.25rem;margin-top:0}code{background:#f1f3f5;padding:0 .25rem;border-radius:4px}
.actions{display:flex;gap:.5rem;margin-top:1.5rem}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1f7a52;background:#1f7a52;color:#fff;cursor:pointer}
button#close{background:#fff;color:#1c1c1c;border-color:#c1c8cd}button:disabled{opacity:.6;cursor:wait}
[role=alert]{color:#b42318}
`

export const installScript = `'use strict';
(function () {
  var main = document.querySelector('main');
  var slug = main.getAttribute('data-organization-slug');
  var install = document.getElementById('install');
  var close = document.getElementById('close');
  var error = document.getElementById('error');
  var done = document.getElementById('done');
  close.addEventListener('click', function () { window.close(); });
  if (!install) return;
  install.addEventListener('click', function () {
    install.disabled = true;
    error.hidden = true;
    fetch('installations', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organization_slug: slug })
    }).then(function (res) {
      return res.json().then(function (body) {
        if (!res.ok) throw new Error(body && body.message ? body.message : 'The platform answered ' + res.status);
        return body;
      });
    }).then(function (installation) {
      var message = { type: 'github-installation', organization_slug: slug, installation_id: installation.id };
      if (window.opener) {
        window.opener.postMessage(message, window.location.origin);
        window.close();
      }
      done.hidden = false;
      install.hidden = true;
    }).catch(function (err) {
      error.textContent = 'Failed to install GitHub: ' + err.message;
      error.hidden = false;
      install.disabled = false;
    });
  });
})();
`
