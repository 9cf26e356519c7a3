/**
 * Every endpoint of the platform, written once (what a descriptor is: src/contracts/endpoint.ts). Import the module
 * as a namespace (`import * as endpoints from …`): each descriptor is its own export, so the dashboard's bundle keeps
 * only those it calls (the development controls stay out of it). The descriptors live in one module per part of the
 * platform (./endpoints/*.ts), so a part that only later screens call loads with those screens, contracts and all,
 * instead of with the first page.
 * `response: null` means no body the dashboard reads (the server may still send one).
 */
export * from './endpoints/session'
export * from './endpoints/organizations'
export * from './endpoints/projects'
export * from './endpoints/pause'
export * from './endpoints/upgrade'
export * from './endpoints/keys'
export * from './endpoints/v1'
export * from './endpoints/dev'
export * from './endpoints/database'
export * from './endpoints/storage'
export * from './endpoints/functions'
export * from './endpoints/functionRuntime'
export * from './endpoints/github'
export * from './endpoints/accounts'
export * from './endpoints/members'
export * from './endpoints/orgSettings'
export * from './endpoints/measured'
export * from './endpoints/settings'
export * from './endpoints/support'
export * from './endpoints/rest'
export * from './endpoints/branching'
export * from './endpoints/auth'
export * from './endpoints/wire'
export * from './endpoints/projectAuth'
export * from './endpoints/realtime'
export * from './endpoints/snippets'
export * from './endpoints/databaseObjects'
export * from './endpoints/tableEditor'
