import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { lazyDeclarationMark, preloadLazyComponents } from '../src/views/shell/lazy'

// Every view and model test renders under React's StrictMode, as `npm run dev` does (src/app/main.tsx): effects run,
// are cleaned up and run again, so an actor or a listener that does not survive that fails here first.
configure({ reactStrictMode: true })

afterEach(() => cleanup())

// Dialogs and menus load their code when first shown; view tests load it up front so they render at once. The files
// of a worker share one module graph: what the modules declared stays loaded, a file's own test lazies are dropped.
let forgetTestDeclarations = () => {}
beforeAll(async () => {
  forgetTestDeclarations = lazyDeclarationMark()
  await preloadLazyComponents()
})
afterAll(() => forgetTestDeclarations())
