import { NativeSelect, Stack } from '@mantine/core';
import { FLEET_ROLES, fleetRoleDescriptions, fleetRoleLabels, fleetScreens, type FleetRole } from '@portal/domain';
import { IconUserPlus } from '@tabler/icons-react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { cpfCnpjMask } from '../../components/ui/masks';
import { NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { TitledSection } from '../../components/ui/TitledSection';
import { toastFormAnswer } from '../../components/ui/toastFailure';
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

  const onSubmit = handleSubmit((values) =>
    toastFormAnswer(invite.mutateAsync(values), { setError, fields: INVITE_SERVER_FIELDS }, () => reset(emptyInviteForm), {
      autoClose: 10_000,
    }),
  );

  return (
    <TitledSection id="convidar-membro" title={t.inviteTitle} hint={t.inviteHint}>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="md">
          <div className={classes.formFields}>
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
    </TitledSection>
  );
}
