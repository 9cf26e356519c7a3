/**
 * The last line under every screen: a part of the dashboard that fails to load (a screen's or a machine's chunk
 * lost to the network, or a new deployment that replaced it) or throws while rendering shows what happened and a way
 * on, never a blank page. React catches render errors only in a class component's error boundary.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react'
import { ErrorPanel } from './ui'

interface State {
  error: Error | null
}

export class LoadFailed extends Component<{ children: ReactNode }, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A part of the dashboard failed to load or render:', error, info.componentStack)
  }

  render() {
    if (!this.state.error) return this.props.children
    return (
      <main className="mx-auto max-w-xl p-8">
        <ErrorPanel
          title="This page could not be loaded"
          message={`${this.state.error.message}. Try again reloads the page.`}
          onRetry={() => window.location.reload()}
        />
      </main>
    )
  }
}
