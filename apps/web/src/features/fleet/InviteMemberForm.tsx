import { NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { FLEET_ROLES, fleetRoleDescriptions, fleetRoleLabels, fleetScreens, type FleetRole } from '@portal/domain';
import { IconUserPlus } from '@tabler/icons-react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { cpfCnpjMask } from '../../components/ui/masks';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { SUCCESS_TOAST_TITLE, toast } from '../../components/ui/toast';
import { toastFormFailure } from '../../components/ui/toastFailure';
import { useInviteMember } from './api/mutations';
import classes from './FleetPages.module.css';
import { emptyInviteForm, INVITE_SERVER_FIELDS, inviteResolver, type InviteFormInput, type InviteFormValues } from './inviteForm';

const t = fleetScreens.members;

const isFleetRole = (value: string): value is FleetRole => (FLEET_ROLES as readonly string[]).includes(value);

const roleOptions = [
  { value: '', label: t.inviteRolePlaceholder, disabled: true },
  ...FLEET_ROLES.map((role) => ({ value: role, label: fleetRoleLabels[role] })),
];

/**
 * 'Convidar pessoa': the CPF (masked as on the registration) and the role, with what the role may do
 * under it. The contract's rules say what is wrong under each field before anything is sent; the
 * server's field messages go there too, its Mensagem in a toast.
 */
export function InviteMemberForm() {
  const invite = useInviteMember();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<InviteFormInput, unknown, InviteFormValues>({ resolver: inviteResolver, defaultValues: emptyInviteForm });
  const role = useWatch({ control, name: 'papel' });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await invite.mutateAsync(values);
      reset(emptyInviteForm);
      toast.success(answer.Mensagem, { title: SUCCESS_TOAST_TITLE, autoClose: 10_000 });
    } catch (failure) {
      toastFormFailure(failure, setError, INVITE_SERVER_FIELDS);
    }
  });

  return (
    <Paper component="section" aria-labelledby="convidar-membro" withBorder shadow="xs" p={{ base: 'md', sm: 'lg' }} radius="lg">
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} size="h3" id="convidar-membro">
              {t.inviteTitle}
            </Title>
            <Text size="sm" c="gray.7">
              {t.inviteHint}
            </Text>
          </Stack>
          <div className={classes.inviteFields}>
            <Controller
              control={control}
              name="cpf"
              render={({ field }) => (
                <MaskedInput
                  maskOptions={cpfCnpjMask}
                  label={t.inviteCpf}
                  size="md"
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  inputRef={field.ref}
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder="000.000.000-00"
                  error={errors.cpf?.message}
                />
              )}
            />
            <Controller
              control={control}
              name="papel"
              render={({ field }) => (
                <NativeSelect
                  ref={field.ref}
                  label={t.inviteRole}
                  size="md"
                  data={roleOptions}
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  description={isFleetRole(role) ? fleetRoleDescriptions[role] : undefined}
                  error={errors.papel?.message}
                />
              )}
            />
          </div>
          <NetworkSubmitButton loading={isSubmitting} leftSection={<IconUserPlus size={22} aria-hidden />} maw={{ sm: 320 }}>
            {t.inviteSubmit}
          </NetworkSubmitButton>
        </Stack>
      </form>
    </Paper>
  );
}
