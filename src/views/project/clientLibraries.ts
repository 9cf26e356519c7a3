/** Static lists shown while a project is being set up (spec section 1). */
interface ClientLibrary {
  language: string
  officialSupport: boolean
  releaseState?: 'Alpha'
  docsUrl: string
  sourceUrl: string
}

export const CLIENT_LIBRARIES: ClientLibrary[] = [
  { language: 'JavaScript', officialSupport: true, docsUrl: 'https://supabase.com/docs/reference/javascript', sourceUrl: 'https://github.com/supabase/supabase-js' },
  { language: 'Flutter', officialSupport: true, docsUrl: 'https://supabase.com/docs/reference/dart', sourceUrl: 'https://github.com/supabase/supabase-flutter' },
  { language: 'Python', officialSupport: false, releaseState: 'Alpha', docsUrl: 'https://supabase.com/docs/reference/python', sourceUrl: 'https://github.com/supabase/supabase-py' },
  { language: 'C#', officialSupport: false, docsUrl: 'https://supabase.com/docs/reference/csharp', sourceUrl: 'https://github.com/supabase-community/supabase-csharp' },
  { language: 'Swift', officialSupport: false, docsUrl: 'https://supabase.com/docs/reference/swift', sourceUrl: 'https://github.com/supabase/supabase-swift' },
  { language: 'Kotlin', officialSupport: false, docsUrl: 'https://supabase.com/docs/reference/kotlin', sourceUrl: 'https://github.com/supabase-community/supabase-kt' },
]

interface ExampleApp {
  title: string
  description: string
  url: string
}

export const EXAMPLE_APPS: ExampleApp[] = [
  { title: 'Kanban board', description: 'A Trello clone using Supabase as the storage system, built with Svelte.', url: 'https://github.com/joshnuss/supabase-kanban' },
  { title: 'Realtime chat', description: 'A chat app using Realtime to send and receive messages.', url: 'https://github.com/supabase/supabase/tree/master/examples/slack-clone/nextjs-slack-clone' },
  { title: 'Subscription starter', description: 'Recurring payments with Stripe and user accounts.', url: 'https://github.com/vercel/nextjs-subscription-payments' },
  { title: 'Todo list', description: 'A simple todo list with row level security.', url: 'https://github.com/supabase/supabase/tree/master/examples/todo-list' },
  { title: 'Mobile starter', description: 'Authentication and a profile screen with Expo and React Native.', url: 'https://github.com/supabase/supabase/tree/master/examples/user-management/expo-user-management' },
  { title: 'User management', description: 'Sign-up, login and a profile page with avatar upload.', url: 'https://github.com/supabase/supabase/tree/master/examples/user-management/nextjs-user-management' },
]
