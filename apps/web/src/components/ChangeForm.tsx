import { createContext, useContext, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  FormProvider,
  useForm,
  useFormContext,
  type DefaultValues,
  type FieldValues,
  type Path,
  type SubmitErrorHandler,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';

/** What a form's buttons and error line read of the change the form sends. */
export interface FormChange {
  isPending: boolean;
  error: string | null;
}

const ChangeContext = createContext<FormChange | null>(null);

/** The change of the form around, if any (SubmitButton reads its pending state from it). */
export const useFormChange = () => useContext(ChangeContext);

/**
 * The form of a schema: it holds what is typed (the schema's input) and hands the submit what
 * the schema makes of it (its output); one type when the two are the same.
 */
export type SchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>> = UseFormReturn<
  z.input<Schema>,
  unknown,
  z.output<Schema>
>;

/**
 * A form on the contract's schema: the values are checked with the same zod schema the server
 * checks the request with, so a field's message is the server's own. `options` for the rest of
 * react-hook-form's (e.g. `reValidateMode: 'onSubmit'`: a message stays until the next press).
 */
export function useSchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  defaultValues: DefaultValues<z.input<Schema>>,
  options: Omit<
    UseFormProps<z.input<Schema>, unknown, z.output<Schema>>,
    'resolver' | 'defaultValues' | 'formControl'
  > = {},
): SchemaForm<Schema> {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    ...options,
    // The resolver's types follow the schema; the form holds its input, the submit its output.
    resolver: zodResolver(schema as never),
    defaultValues,
  });
}

/** The form element's own attributes (style, aria-busy...), but those ChangeForm sets. */
type FormElementProps = Omit<
  ComponentPropsWithoutRef<'form'>,
  'onSubmit' | 'onInvalid' | 'children' | 'id' | 'noValidate'
>;

interface ChangeFormProps<
  Values extends FieldValues,
  Checked extends FieldValues,
> extends FormElementProps {
  form: UseFormReturn<Values, unknown, Checked>;
  /** The change the form sends (useChange): its pending state and its last failure. */
  change: FormChange;
  /** The checked values: typically `change.submit(values, …)`. */
  onSubmit: (values: Checked) => void;
  /** The fields' messages when the check stopped the press (e.g. to say so in an alert too). */
  onInvalid?: SubmitErrorHandler<Values>;
  children: ReactNode;
  id?: string;
}

/**
 * A form that sends one change: the fields reach the form through FormField, the submit
 * button and the error line reach the change through the context, so no page hands a button
 * its pending state.
 */
export function ChangeForm<Values extends FieldValues, Checked extends FieldValues = Values>({
  form,
  change,
  onSubmit,
  onInvalid,
  children,
  id,
  ...formProps
}: ChangeFormProps<Values, Checked>) {
  return (
    <FormProvider {...form}>
      <ChangeContext.Provider value={change}>
        <form id={id} onSubmit={form.handleSubmit(onSubmit, onInvalid)} noValidate {...formProps}>
          {children}
        </form>
      </ChangeContext.Provider>
    </FormProvider>
  );
}

/** Why the form's last press did nothing, when it did nothing. */
export function ChangeError() {
  const change = useFormChange();
  if (!change?.error) return null;
  return (
    <Alert severity="error" role="alert">
      {change.error}
    </Alert>
  );
}

type FormFieldProps<Values extends FieldValues> = Omit<TextFieldProps, 'name' | 'error'> & {
  name: Path<Values>;
  /** Shown under the field when it has no error. */
  help?: ReactNode;
};

/** A text field of the form around: registered by name, its error under it. */
export function FormField<Values extends FieldValues>({
  name,
  help,
  slotProps,
  ...props
}: FormFieldProps<Values>) {
  const { register, getFieldState, formState } = useFormContext<Values>();
  // By path, so a field in a list (`tiers.0.code`) finds its own message.
  const error = getFieldState(name, formState).error?.message;
  return (
    <TextField
      {...register(name)}
      error={Boolean(error)}
      helperText={error ?? help}
      slotProps={{ ...slotProps, inputLabel: { shrink: true, ...slotProps?.inputLabel } }}
      fullWidth
      {...props}
    />
  );
}
