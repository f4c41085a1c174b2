import { useMutation } from '@tanstack/react-query';
import { FileUp, Mail } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { InvitationsSent } from '../../../../../functions/contracts/teams';
import { Button } from '../../../components/ui/Button';
import type { ApiError } from '../../../lib/api-client';
import { sendInvitations } from '../api/invites';
import { invitationSummary } from '../utils/invitations';
import { INVITE_TEXT } from '../utils/text';
import { FieldLabel } from '../../../components/ui/FieldLabel';

/** A CSV larger than this is not a list of addresses (the API takes 100,000 characters). */
const MAX_CSV_BYTES = 100_000;

/**
 * 'Invite by e-mail' (docs/product-spec.md §2 "Teams"): addresses pasted into one field, or a CSV file's text added
 * to it; the server reads every address in it (`parseInviteeList`) and answers what happened to each, summed up in
 * one line ('Invited 3. 1 already in the team.').
 */
export function EmailInvites({ teamId, onSent }: { teamId: string; onSent: () => Promise<void> }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [summary, setSummary] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (body: { text: string }) => sendInvitations(teamId, body),
    onSuccess: (result: InvitationsSent) => {
      setSummary(invitationSummary(result));
      if (result.sent.length > 0) setText('');
      void onSent();
    },
    onError: (error: ApiError) => {
      setSummary(null);
      toast.error(error.message);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.includes('@')) return;
    send.mutate({ text });
  };

  const readCsv = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || file.size > MAX_CSV_BYTES) return;
    const content = await file.text();
    setText((before) => (before.trim() ? `${before.trim()}\n${content}` : content));
  };

  return (
    <form onSubmit={submit} className="mt-6 border-t border-slate-100 pt-5">
      <h3 className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <Mail aria-hidden="true" className="size-4 text-slate-500" />
        {INVITE_TEXT.byEmail}
      </h3>
      <FieldLabel htmlFor={id} hint={INVITE_TEXT.emailsHint} className="mt-3">
        {INVITE_TEXT.emails}
      </FieldLabel>
      <textarea
        id={id}
        rows={4}
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-describedby={`${id}-hint`}
        autoCapitalize="none"
        spellCheck={false}
        className="mt-1.5 block w-full rounded-xl border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600 sm:text-sm"
      />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" loading={send.isPending} disabled={!text.includes('@')}>
          {INVITE_TEXT.send}
        </Button>
        <Button variant="secondary" onClick={() => fileInput.current?.click()}>
          <FileUp aria-hidden="true" className="size-4" />
          {INVITE_TEXT.csv}
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".csv,text/csv,text/plain"
          tabIndex={-1}
          aria-hidden="true"
          className="hidden"
          onChange={(event) => void readCsv(event)}
        />
      </div>
      <p role="status" className="mt-3 text-sm font-medium text-slate-800">
        {summary}
      </p>
    </form>
  );
}
