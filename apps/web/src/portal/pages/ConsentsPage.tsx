import { useState } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { CONSENT_PURPOSES, PORTAL_TEXTS, type ConsentPurpose } from '@kanak/contract';
import { consent, me } from '../api';
import { failureMessage } from '../http';
import { BackLink, LoadFailed, Loading, Notice, Panel, ScreenTitle } from '../parts';
import { useLoad } from '../useLoad';

const texts = PORTAL_TEXTS.consents;

/** The customer's own choice of messages from the shop, recorded as given by them. */
export function ConsentsPage() {
  const { state, reload } = useLoad(async () => (await me()).consents, 'consents');
  const [saving, setSaving] = useState<ConsentPurpose | null>(null);
  const [shown, setShown] = useState<{ consents: Record<ConsentPurpose, boolean> } | null>(null);
  const [note, setNote] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const consents = shown?.consents ?? (state.status === 'done' ? state.data : null);

  const choose = async (purpose: ConsentPurpose, granted: boolean) => {
    // The switch keeps its focus while the choice is saved; a second tap meanwhile waits.
    if (saving !== null || !consents) return;
    const before = consents;
    // The switch shows the choice at once; a refusal puts it back.
    setShown({ consents: { ...before, [purpose]: granted } });
    setSaving(purpose);
    setNote(null);
    try {
      const answer = await consent(purpose, granted);
      setShown({ consents: answer.data });
      setNote({ text: answer.message ?? '', tone: 'success' });
    } catch (failure) {
      setShown({ consents: before });
      setNote({ text: failureMessage(failure), tone: 'error' });
    } finally {
      setSaving(null);
    }
  };

  return (
    <>
      <BackLink />
      <ScreenTitle>{texts.title}</ScreenTitle>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <LoadFailed error={state.error} retry={reload} />}
      {consents && (
        <>
          <Typography sx={{ mb: 2 }}>{texts.intro}</Typography>
          {note?.text && <Notice tone={note.tone}>{note.text}</Notice>}
          <Panel>
            <Box sx={{ display: 'grid', gap: 1 }}>
              {CONSENT_PURPOSES.map((purpose) => (
                <FormControlLabel
                  key={purpose}
                  control={
                    <Switch
                      checked={consents[purpose]}
                      onChange={(event) => void choose(purpose, event.target.checked)}
                    />
                  }
                  label={texts[purpose]}
                />
              ))}
            </Box>
          </Panel>
        </>
      )}
    </>
  );
}
