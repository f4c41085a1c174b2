/**
 * The headshot generator: the four-step wizard at `/generator` (docs/product-spec.md §2 "Generator wizard"). Import from here
 * (`features/generator`), not from the files behind it.
 *
 * - {@link GeneratorRoute}: the route's screen, the wizard opened on the draft kept with the account when the tab has
 *   none of its own (render it inside `RequireAuth`).
 */
export { GeneratorRoute } from './components/GeneratorRoute';
export type { WizardStep } from './components/GeneratorPage';
