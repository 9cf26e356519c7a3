import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, beforeAll } from 'vitest'
import { preloadLazyComponents } from '../src/views/shell/lazy'

afterEach(() => cleanup())

// Dialogs and menus load their code when first shown; view tests load it up front so they render at once.
beforeAll(async () => {
  await preloadLazyComponents()
})
