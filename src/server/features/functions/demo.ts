/**
 * The demo's edge functions, by demo schema (the key of src/server/projectdb/demoSchemas.ts): what a
 * project of that kind would deploy, with plausible Deno sources; they run on the function runtime (runtime/), the npm: imports fetched on first start.
 */

export interface DemoFunction {
  slug: string
  name: string
  verifyJwt: boolean
  body: string
}

const helloWorld: DemoFunction = {
  slug: 'hello-world',
  name: 'hello-world',
  verifyJwt: true,
  body: `// Answers a greeting for the name in the JSON body.
Deno.serve(async (req) => {
  const { name } = await req.json().catch(() => ({ name: 'world' }))
  return new Response(JSON.stringify({ message: \`Hello \${name ?? 'world'}!\` }), {
    headers: { 'Content-Type': 'application/json' },
  })
})
`,
}

const resizeImage: DemoFunction = {
  slug: 'resize-image',
  name: 'resize-image',
  verifyJwt: true,
  body: `// Makes a 400 px wide thumbnail of an image in the recipe-photos bucket.
import { createClient } from 'npm:@supabase/supabase-js@2'
import { ImageMagick, initializeImageMagick, MagickFormat } from 'npm:@imagemagick/magick-wasm@0.0.30'

// The WebAssembly module ships inside the package.
const wasm = await Deno.readFile(new URL('magick.wasm', import.meta.resolve('npm:@imagemagick/magick-wasm@0.0.30')))
await initializeImageMagick(wasm)

Deno.serve(async (req) => {
  const { path } = await req.json()
  if (typeof path !== 'string' || path === '') {
    return new Response(JSON.stringify({ error: 'path is required' }), { status: 400 })
  }
  const supabase = createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!)
  const { data, error } = await supabase.storage.from('recipe-photos').download(path)
  if (error) return new Response(JSON.stringify({ error: error.message }), { status: 404 })

  const thumbnail = ImageMagick.read(new Uint8Array(await data.arrayBuffer()), (image) => {
    image.resize(400, 0)
    return image.write(MagickFormat.WebP, (bytes) => bytes.slice())
  })
  const target = path.replace(/\\.[^.]+$/, '') + '.thumb.webp'
  const upload = await supabase.storage
    .from('recipe-photos')
    .upload(target, thumbnail, { contentType: 'image/webp', upsert: true })
  if (upload.error) return new Response(JSON.stringify({ error: upload.error.message }), { status: 500 })
  return new Response(JSON.stringify({ thumbnail: target }), { headers: { 'Content-Type': 'application/json' } })
})
`,
}

const sendOrderEmail: DemoFunction = {
  slug: 'send-order-email',
  name: 'send-order-email',
  // Called by a database webhook with the service key, not by a signed-in user.
  verifyJwt: false,
  body: `// Sends the order confirmation when an order is paid (called by a database webhook on orders).
import { createClient } from 'npm:@supabase/supabase-js@2'

interface OrderWebhook {
  type: 'INSERT' | 'UPDATE' | 'DELETE'
  record: { id: number; customer_id: string; status: string }
  old_record: { status: string } | null
}

Deno.serve(async (req) => {
  const payload = (await req.json()) as OrderWebhook
  if (payload.record.status !== 'paid' || payload.old_record?.status === 'paid') {
    return new Response(null, { status: 204 })
  }
  const supabase = createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!)
  const { data: customer, error } = await supabase
    .from('customers')
    .select('email, full_name')
    .eq('id', payload.record.customer_id)
    .single()
  if (error) return new Response(JSON.stringify({ error: error.message }), { status: 500 })

  const sent = await fetch(Deno.env.get('MAIL_API_URL')!, {
    method: 'POST',
    headers: { Authorization: \`Bearer \${Deno.env.get('MAIL_API_KEY')}\`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      from: Deno.env.get('MAIL_FROM'),
      to: customer.email,
      subject: \`Order #\${payload.record.id} is confirmed\`,
      text: \`Hi \${customer.full_name ?? 'there'}, thank you for your order #\${payload.record.id}.\`,
    }),
  })
  return new Response(JSON.stringify({ sent: sent.ok }), { status: sent.ok ? 200 : 502 })
})
`,
}

const stripeWebhook: DemoFunction = {
  slug: 'stripe-webhook',
  name: 'stripe-webhook',
  verifyJwt: false,
  body: `// Marks an order paid when the payment provider reports a completed checkout.
import Stripe from 'npm:stripe@14'
import { createClient } from 'npm:@supabase/supabase-js@2'

const stripe = new Stripe(Deno.env.get('STRIPE_SECRET_KEY')!)
const cryptoProvider = Stripe.createSubtleCryptoProvider()

Deno.serve(async (req) => {
  const signature = req.headers.get('Stripe-Signature')
  if (!signature) return new Response('missing signature', { status: 400 })
  let event: Stripe.Event
  try {
    event = await stripe.webhooks.constructEventAsync(
      await req.text(),
      signature,
      Deno.env.get('STRIPE_WEBHOOK_SIGNING_SECRET')!,
      undefined,
      cryptoProvider,
    )
  } catch (err) {
    // A forged or stale signature: not the provider, nothing changes.
    return new Response((err as Error).message, { status: 400 })
  }
  if (event.type === 'checkout.session.completed') {
    const orderId = Number(event.data.object.metadata?.order_id)
    const supabase = createClient(Deno.env.get('SUPABASE_URL')!, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!)
    const { error } = await supabase.from('orders').update({ status: 'paid' }).eq('id', orderId)
    if (error) return new Response(error.message, { status: 500 })
  }
  return new Response(JSON.stringify({ received: true }), { headers: { 'Content-Type': 'application/json' } })
})
`,
}

export const demoFunctions: Record<string, DemoFunction[]> = {
  recipes: [helloWorld, resizeImage],
  storefront: [helloWorld, sendOrderEmail, stripeWebhook],
}
