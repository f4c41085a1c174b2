import { Button } from '../../../components/ui/Button';
import { STYLE_CHOICE, type StyleId } from '../utils/content';
import { ChoiceStep } from './ChoiceStep';
import { StepFooter } from './StepLayout';

/** Props of {@link StyleStep}. */
export interface StyleStepProps {
  value: StyleId | null;
  onChange: (style: StyleId) => void;
  onContinue: () => void;
}

/** Step 2 'Choose your style' (docs/product-spec.md §2): the three style cards with example images; Continue needs a choice. */
export function StyleStep({ value, onChange, onContinue }: StyleStepProps) {
  return (
    <ChoiceStep {...STYLE_CHOICE} value={value} onChange={onChange}>
      <StepFooter hint={value ? undefined : 'Choose a style to continue.'}>
        <Button size="lg" disabled={!value} onClick={onContinue} className="w-full sm:w-auto">
          Continue
        </Button>
      </StepFooter>
    </ChoiceStep>
  );
}
