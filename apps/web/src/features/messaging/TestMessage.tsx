import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/SendOutlined';
import { NOTICE_MESSAGES, TEST_MESSAGE_TEXTS, type TestMessageResult } from '@kanak/contract';
import { SubmitButton } from '../../components/SubmitButton';
import { reportFailure } from '../../lib/failure';
import { useSendTestMessage } from './api';

const texts = TEST_MESSAGE_TEXTS;

/**
 * "Send test message": one WhatsApp message to the saved Phone through the saved panel, and
 * how it went (sent or not, and why, in words), so the owner sees at once whether customers'
 * notices can go.
 */
export function TestMessage({
  saved,
  busy,
}: {
  /** Whether a configuration is saved; undefined until the server has said. */
  saved: boolean | undefined;
  busy: boolean;
}) {
  const send = useSendTestMessage();
  const [result, setResult] = useState<TestMessageResult | null>(null);
  const hintId = useId();

  const sendTest = () => {
    setResult(null);
    send.submit(null, {
      onSuccess: (answer) => setResult(answer.data),
      onError: (error) => reportFailure(error, texts.failed),
    });
  };

  return (
    <Box>
      <SubmitButton
        type="button"
        variant="outlined"
        startIcon={<SendIcon />}
        pending={send.isPending}
        pendingLabel={texts.sending}
        disabled={!saved || busy}
        aria-describedby={saved === false ? hintId : undefined}
        onClick={sendTest}
      >
        {texts.send}
      </SubmitButton>
      {saved === false && (
        <Typography id={hintId} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {texts.needsSave}
        </Typography>
      )}
      {result && (
        <Alert
          severity={result.sent ? 'success' : 'error'}
          role="status"
          aria-label={texts.result}
          sx={{ mt: 2 }}
        >
          <AlertTitle>{result.sent ? NOTICE_MESSAGES.testMessageSent : texts.notSent}</AlertTitle>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {result.answer}
          </Typography>
        </Alert>
      )}
    </Box>
  );
}
