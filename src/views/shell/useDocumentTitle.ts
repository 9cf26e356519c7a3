import { useEffect } from 'react'

/** '{title} | Supabase', the document title of every page. */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    if (title !== null) document.title = `${title} | Supabase`
  }, [title])
}
