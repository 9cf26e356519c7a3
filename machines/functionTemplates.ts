/**
 * The templates a new function starts from in the browser ('Deploy a new function'): each one file, `index.ts`,
 * a `Deno.serve` handler that runs on the platform's runtime as it is.
 */
export interface FunctionTemplate {
  id: string
  name: string
  description: string
  code: string
}

export const FUNCTION_TEMPLATES: readonly FunctionTemplate[] = [
  {
    id: 'hello-world',
    name: 'Simple Hello World',
    description: 'Answers a JSON greeting with the name it is sent.',
    code: `Deno.serve(async (req) => {
  const { name } = await req.json().catch(() => ({ name: 'world' }))
  console.log(\`greeting \${name}\`)
  return Response.json({ message: \`Hello \${name}!\` })
})
`,
  },
  {
    id: 'supabase-client',
    name: 'Supabase Database Access',
    description: "Reads the project's tables with supabase-js, as the caller.",
    code: `import { createClient } from 'npm:@supabase/supabase-js@2'

Deno.serve(async (req) => {
  const supabase = createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_ANON_KEY')!, {
    global: { headers: { Authorization: req.headers.get('Authorization') ?? '' } },
  })
  const { data, error } = await supabase.from('recipes').select('*').limit(5)
  if (error) return Response.json({ error: error.message }, { status: 400 })
  return Response.json(data)
})
`,
  },
  {
    id: 'secret-reader',
    name: 'Read a secret',
    description: 'Answers whether the secret GREETING is set, from its environment.',
    code: `Deno.serve(() => {
  const greeting = Deno.env.get('GREETING')
  return Response.json({ greeting: greeting ?? null })
})
`,
  },
]

export const templateById = (id: string) => FUNCTION_TEMPLATES.find((template) => template.id === id) ?? FUNCTION_TEMPLATES[0]
