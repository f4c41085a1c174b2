/**
 * The headshot generator: the four-step wizard at `/generator` (docs/product-spec.md §2 "Generator wizard"). Import from here
 * (`features/generator`), not from the files behind it.
 *
 * - {@link GeneratorPage}: the route's screen (render it inside `RequireAuth`).
 */
export { GeneratorPage } from './components/GeneratorPage';
export type { WizardStep } from './components/GeneratorPage';
