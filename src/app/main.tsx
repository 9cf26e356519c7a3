import './jitless'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { startInspector } from './inspector'
import './index.css'

// The inspector (dev, VITE_INSPECT=1) must be ready before the first actor starts; elsewhere this resolves at once.
void startInspector().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
})
