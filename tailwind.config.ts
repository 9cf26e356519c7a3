import type { Config } from 'tailwindcss'

// Tailwind 4 reads this file through `@config` in src/app/index.css.
export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  darkMode: ['variant', '&:where(.dark, .dark *, .deep-dark, .deep-dark *)'],
  theme: {
    extend: {
      width: { 'nav-collapsed': '56px', 'nav-expanded': '13rem' },
      maxWidth: { 'side-menu': '32rem' },
      minWidth: { 'side-menu': '16rem' },
    },
  },
} satisfies Config
