import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/Button';
import { STYLE_CHOICE, type OutfitId, type StyleId, type WizardOption } from '../utils/content';
import { ChoiceStep } from './ChoiceStep';
import { OutfitChoice } from './OutfitChoice';
import { StepFooter } from './StepLayout';

/** Props of {@link StyleStep}. */
export interface StyleStepProps {
  value: StyleId | null;
  onChange: (style: StyleId) => void;
  /** The outfit (issue 36), chosen on the same step: the style's feel and the clothing go together. */
  outfit: OutfitId;
  onOutfitChange: (outfit: OutfitId) => void;
  onContinue: () => void;
  /**
   * A team's look (issue 37): the styles and outfits it offers, and the notes of the fixed ones ('Set by your team').
   * Absent: every style and outfit.
   */
  team?: {
    styles: readonly WizardOption<StyleId>[];
    outfits: readonly { id: OutfitId; label: string }[];
    styleNote?: ReactNode;
    outfitNote?: string;
  };
}

/**
 * Step 2 'Choose your style' (docs/product-spec.md §2): the three style cards with example images, then the outfit;
 * Continue needs a style (the outfit always has one).
 */
export function StyleStep({ value, onChange, outfit, onOutfitChange, onContinue, team }: StyleStepProps) {
  return (
    <ChoiceStep
      {...STYLE_CHOICE}
      options={team?.styles ?? STYLE_CHOICE.options}
      note={team?.styleNote}
      value={value}
      onChange={onChange}
    >
      <OutfitChoice
        value={outfit}
        onChange={onOutfitChange}
        {...(team ? { options: team.outfits, lockedNote: team.outfitNote } : {})}
      />
      <StepFooter hint={value ? undefined : 'Choose a style to continue.'}>
        <Button size="lg" disabled={!value} onClick={onContinue} className="w-full sm:w-auto">
          Continue
        </Button>
      </StepFooter>
    </ChoiceStep>
  );
}
