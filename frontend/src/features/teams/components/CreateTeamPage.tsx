import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Building2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { createTeamBody } from '../../../../../functions/contracts/teams';
import { Button } from '../../../components/ui/Button';
import { teamHref } from '../../../config/paths';
import type { ApiError } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { createTeam } from '../api/team-writes';
import { splitDomains } from '../utils/team-form';
import { CREATE_TEAM_TEXT } from '../utils/text';
import { FIELD_CLASSES, TeamFrame } from './TeamLayout';
import { FieldLabel } from '../../../components/ui/FieldLabel';

/**
 * `/teams/new`, 'Create a team' (docs/product-spec.md §2 "Teams"): the company's name and, optionally, its e-mail
 * domains (comma-separated); the form checks them with the route's own contract before sending, the server refuses
 * public webmail with its sentence. Created: the team's page, the caller its owner.
 */
export function CreateTeamPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const nameId = useId();
  const domainsId = useId();
  const [name, setName] = useState('');
  const [domains, setDomains] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: createTeam,
    onSuccess: (team) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.teams.all });
      void navigate(teamHref(team.teamId), { replace: true });
    },
    onError: (error: ApiError) => setProblem(error.message || CREATE_TEAM_TEXT.failed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createTeamBody.safeParse({ name, allowedDomains: splitDomains(domains) });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? CREATE_TEAM_TEXT.failed);
      return;
    }
    setProblem(null);
    create.mutate(parsed.data);
  };

  return (
    <TeamFrame title={CREATE_TEAM_TEXT.title}>
      <form
        noValidate
        onSubmit={submit}
        className="mx-auto max-w-xl rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8"
      >
        <h1 className="flex items-center gap-2 font-display text-2xl font-bold tracking-tight text-slate-900">
          <Building2 aria-hidden="true" className="size-6 text-brand-600" />
          {CREATE_TEAM_TEXT.title}
        </h1>
        <FieldLabel htmlFor={nameId} className="mt-6">
          {CREATE_TEAM_TEXT.name}
        </FieldLabel>
        <input
          id={nameId}
          name="name"
          required
          autoComplete="organization"
          maxLength={80}
          value={name}
          onChange={(event) => setName(event.target.value)}
          className={`${FIELD_CLASSES} mt-1.5`}
        />
        <FieldLabel htmlFor={domainsId} hint={CREATE_TEAM_TEXT.domainsHint} className="mt-5">
          {CREATE_TEAM_TEXT.domains}
        </FieldLabel>
        <input
          id={domainsId}
          name="domains"
          inputMode="url"
          autoCapitalize="none"
          spellCheck={false}
          value={domains}
          onChange={(event) => setDomains(event.target.value)}
          aria-describedby={`${domainsId}-hint`}
          className={`${FIELD_CLASSES} mt-1.5`}
        />
        {problem && (
          <p role="alert" className="mt-4 text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
        <Button type="submit" size="lg" loading={create.isPending} className="mt-6 w-full sm:w-auto">
          {CREATE_TEAM_TEXT.submit}
        </Button>
      </form>
    </TeamFrame>
  );
}
