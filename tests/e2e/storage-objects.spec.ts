import { expect, test, type Page } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

/** A 1×1 PNG: small, but a real image the browser decodes. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const NOTES = '{"hello":"storage","from":"the e2e walk"}'

/** Creates a private bucket on the bucket list and opens it from there: an empty folder. */
async function openNewBucket(page: Page, ref: string, bucket: string) {
  await page.goto(`/project/${ref}/storage/buckets`)
  await page.getByRole('button', { name: 'New bucket' }).click({ timeout: 30_000 })
  const create = page.getByRole('dialog', { name: 'Create bucket' })
  await create.getByLabel('Name').fill(bucket)
  await create.getByRole('button', { name: 'Create bucket' }).click()
  await expect(create).toBeHidden()
  await page.getByRole('link', { name: bucket }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${ref}/storage/buckets/${bucket}$`))
  await expect(page.getByText('This folder is empty.', { exact: false })).toBeVisible({ timeout: 20_000 })
}

test('a bucket made on the Storage page takes two files dropped on it, shows a folder in columns, previews the image, signs a URL that opens, and deletes them', async ({ page, context }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')
  const bucket = `e2e-files-${Date.now().toString(36)}`

  await openNewBucket(page, ref, bucket)
  await expect(page.getByRole('navigation', { name: 'Folder path' }).getByText(bucket)).toBeVisible()
  await expectAccessible(page, 'Empty bucket', page.getByText('This folder is empty.', { exact: false }))

  // Drop two files on the folder.
  const drop = page.getByRole('region', { name: 'Drop files here to upload them to this folder' })
  const dataTransfer = await page.evaluateHandle(
    ({ png, notes }) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([bytes], 'pixel.png', { type: 'image/png' }))
      transfer.items.add(new File([notes], 'notes.json', { type: 'application/json' }))
      return transfer
    },
    { png: PNG_BASE64, notes: NOTES },
  )
  await drop.dispatchEvent('dragover', { dataTransfer })
  await drop.dispatchEvent('drop', { dataTransfer })

  // Each file has its own progress bar, which reaches 100 when the file is stored.
  const uploads = page.getByRole('region', { name: 'Uploads' })
  for (const name of ['pixel.png', 'notes.json']) {
    const bar = uploads.getByRole('progressbar', { name: `Upload of ${name}` })
    await expect(bar).toBeVisible()
    await expect(bar).toHaveAttribute('value', '100')
  }
  await expect(uploads.getByText('Uploaded')).toHaveCount(2)
  const files = page.getByRole('table', { name: 'Files' })
  await expect(files.getByRole('button', { name: 'pixel.png', exact: true })).toBeVisible()
  await expect(files.getByRole('button', { name: 'notes.json', exact: true })).toBeVisible()
  await expectAccessible(page, 'Bucket with two files and their uploads', files.getByRole('button', { name: 'notes.json', exact: true }))

  // A folder, then the columns: the root's column, and the folder's opened to its right, by keyboard.
  await page.getByRole('button', { name: 'New folder' }).click()
  const newFolder = page.getByRole('dialog', { name: 'Create folder' })
  await newFolder.getByLabel('Folder name').fill('docs')
  await newFolder.getByRole('button', { name: 'Create folder' }).click()
  await expect(newFolder).toBeHidden()
  await expect(files.getByRole('button', { name: 'docs/' })).toBeVisible()
  const viewAs = page.getByRole('group', { name: 'View as' })
  await viewAs.getByRole('button', { name: 'Columns' }).click()
  const rootColumn = page.getByRole('group', { name: `Folder ${bucket}` })
  await rootColumn.getByRole('button', { name: 'docs/' }).focus()
  await page.keyboard.press('ArrowRight')
  const docsColumn = page.getByRole('group', { name: 'Folder docs' })
  await expect(docsColumn.getByText('This folder is empty.')).toBeVisible()
  await expect(rootColumn.getByRole('button', { name: 'docs/' })).toHaveAttribute('aria-expanded', 'true')
  await expect(rootColumn.getByText('pixel.png')).toBeVisible()
  await expectAccessible(page, 'Columns with a folder open', docsColumn.getByText('This folder is empty.'))
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: bucket }).click()
  await expect(docsColumn).toBeHidden()
  await viewAs.getByRole('button', { name: 'List' }).click()

  // The image's details: its size and type, and the picture itself.
  await files.getByRole('button', { name: 'pixel.png', exact: true }).click()
  const details = page.getByRole('complementary', { name: 'File details' })
  const image = details.getByRole('img', { name: 'Preview of pixel.png' })
  await expect(image).toBeVisible()
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1)
  await expect(details.getByText('image/png')).toBeVisible()
  await expectAccessible(page, 'File details with an image preview', image)

  // The JSON file previews as text.
  await files.getByRole('button', { name: 'notes.json', exact: true }).click()
  await expect(details.getByLabel('Contents of notes.json')).toContainText('"hello": "storage"')

  // A signed URL of the image, for a day, opens in a new tab.
  await files.getByRole('button', { name: 'Get URL of pixel.png' }).click()
  const getUrl = page.getByRole('dialog', { name: 'Get URL' })
  await getUrl.getByLabel('Expires in').selectOption({ label: '1 day' })
  await getUrl.getByRole('button', { name: 'Create signed URL' }).click()
  const signed = await getUrl.getByLabel('Signed URL').inputValue()
  expect(signed).toMatch(new RegExp(`/p/${ref}/storage/v1/object/sign/${bucket}/pixel\\.png\\?token=`))
  await expectAccessible(page, 'Get URL with a signed URL', getUrl.getByLabel('Signed URL'))
  const tab = await context.newPage()
  const opened = await tab.goto(signed)
  expect(opened?.status()).toBe(200)
  expect(opened?.headers()['content-type']).toBe('image/png')
  expect((await opened!.body()).toString('base64')).toBe(PNG_BASE64)
  await tab.close()
  await getUrl.getByRole('button', { name: 'Done', exact: true }).click()
  await expect(getUrl).toBeHidden()

  // Delete both at once (Get URL took the details' place, so the side shows none now).
  await expect(page.getByRole('complementary', { name: 'File details' })).toContainText('Choose a file to see its details and a preview.')
  await files.getByLabel('Select pixel.png').check()
  await files.getByLabel('Select notes.json').check()
  await files.getByLabel('Select docs').check()
  await page.getByRole('button', { name: 'Delete 3 selected' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete files' })
  await expect(confirm.getByText('these 3 entries', { exact: false })).toBeVisible()
  await expectAccessible(page, 'Delete two files and a folder', confirm.getByText('these 3 entries', { exact: false }))
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(confirm).toBeHidden()
  await expect(page.getByText('This folder is empty.', { exact: false })).toBeVisible()
  // The signed URL no longer finds the object.
  expect((await page.request.get(signed)).status()).toBe(404)
})

test('a file over 6 MB chosen with Upload files goes up through the resumable endpoint, its bar moving chunk by chunk', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')
  const bucket = `e2e-large-${Date.now().toString(36)}`
  await openNewBucket(page, ref, bucket)

  const resumable: string[] = []
  page.on('request', (request) => {
    if (request.url().includes(`/p/${ref}/storage/v1/upload/resumable`)) resumable.push(request.method())
  })
  const size = 7 * 1024 * 1024 + 123
  await page.getByLabel('Upload files').setInputFiles({ name: 'large.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(size, 7) })
  const bar = page.getByRole('region', { name: 'Uploads' }).getByRole('progressbar', { name: 'Upload of large.bin' })
  await expect(bar).toHaveAttribute('value', '100', { timeout: 60_000 })
  // Created with its first chunk, then the rest sent with PATCH (the platform's 6 MB chunks).
  expect(resumable[0]).toBe('POST')
  expect(resumable).toContain('PATCH')
  const files = page.getByRole('table', { name: 'Files' })
  await expect(files.getByRole('button', { name: 'large.bin', exact: true })).toBeVisible()
  await expect(files.getByRole('row', { name: /large\.bin/ })).toContainText('7 MB')
})
