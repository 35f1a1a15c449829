import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { StepOfferResponse } from '@partner-task-kit/workflow/contract';
import { useRef, useState, type FormEvent } from 'react';
import {
  useApiClient,
  useGoBack,
  stepOfferQueryOptions,
  useCheckAgain,
  Button,
  Choice,
  ChoiceGroup,
  FocusHeading,
  useShellTexts,
  type Locale,
  Notice,
  refused,
  type StepScreenProps,
  type StepViewProps,
} from '@partner-task-kit/page/screens';
import { appointmentTexts } from '../appointment-texts';
import { slotsOfferSchema, workAuthorizationSchemas, type SlotsOffer } from '../definition';
import { slotTime } from '../slot-time';
import type { WorkAuthorizationTexts } from '../texts';

const schema = workAuthorizationSchemas.appointment;

/**
 * The slots the partner's backend offers for the worker's postcode (docs/connecting-your-backend.md#offers), loaded
 * through the server, in the worker's language, when the step shows. When they cannot be loaded the worker may try
 * again; when there are none, check again later or go back and change the postcode: never an empty list with no way on.
 */
export default function AppointmentStep({
  texts,
  stepId,
  locale,
  headingId,
  focusHeading,
  saving,
  savedData,
  refusal,
  onSubmit,
}: StepScreenProps<WorkAuthorizationTexts>) {
  const own = appointmentTexts[locale];
  const client = useApiClient();
  const offer = useQuery(stepOfferQueryOptions(client, stepId, locale));
  const goBack = useGoBack(client);
  // The server checked it with the same schema; a page older than the server's workflow may still not read it.
  const parsed = offer.data && slotsOfferSchema.safeParse(offer.data.offer);

  let body;
  if (offer.isPending) {
    body = <p role="status">{own.loading}</p>;
  } else if (offer.isError || !parsed?.success) {
    body = (
      <>
        <Notice tone="error">{own.unavailable}</Notice>
        <Button busy={offer.isFetching} busyText={own.loading} onClick={() => void offer.refetch()}>
          {own.tryAgain}
        </Button>
      </>
    );
  } else if (offer.data.empty) {
    body = <NoSlots offer={offer} locale={locale} changing={goBack.isPending} onChange={() => goBack.mutate(stepId)} />;
  } else {
    body = (
      <SlotChoice
        key={offer.data.loadedAt}
        offer={parsed.data}
        {...{ texts, locale, saving, savedData, onSubmit }}
        refused={refused(refusal, 'slotId')}
      />
    );
  }

  return (
    <section aria-labelledby={headingId}>
      <FocusHeading id={headingId} focusOnMount={focusHeading}>
        {texts.stepTitles.appointment}
      </FocusHeading>
      <p>{own.intro}</p>
      {body}
    </section>
  );
}

function SlotChoice({
  offer,
  texts,
  locale,
  saving,
  savedData,
  refused,
  onSubmit,
}: Pick<StepViewProps, 'locale' | 'saving' | 'savedData' | 'onSubmit'> & {
  offer: SlotsOffer;
  texts: WorkAuthorizationTexts;
  refused: boolean;
}) {
  const own = appointmentTexts[locale];
  const savingText = useShellTexts().saving;
  const saved = schema.safeParse(savedData);
  const savedSlot = saved.success && offer.slots.some((slot) => slot.id === saved.data.slotId) ? saved.data.slotId : '';
  const [slotId, setSlotId] = useState(savedSlot);
  const [tried, setTried] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const invalid = !schema.safeParse({ slotId }).success;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (invalid) return first.current?.focus();
    onSubmit({ slotId });
  }

  return (
    <form onSubmit={submit} noValidate>
      <ChoiceGroup id="appointment-slot" legend={own.legend} error={((tried && invalid) || refused) && own.chooseError}>
        {offer.slots.map((slot, index) => (
          <Choice
            key={slot.id}
            ref={index === 0 ? first : undefined}
            id={`appointment-slot-${index}`}
            type="radio"
            name="appointment-slot"
            value={slot.id}
            checked={slotId === slot.id}
            onChange={() => setSlotId(slot.id)}
            label={own.slot(slotTime(slot, locale), slot.place)}
          />
        ))}
      </ChoiceGroup>
      <Button type="submit" busy={saving} busyText={savingText}>
        {texts.submit}
      </Button>
    </form>
  );
}

/**
 * Nothing offered near the postcode (the step's `isEmpty`, as the server tells): "Check again" once the server's wait
 * is over (the step's `checkAgainAfterMs`), or go back and change the postcode; never a dead end.
 */
function NoSlots({
  offer,
  locale,
  changing,
  onChange,
}: {
  offer: UseQueryResult<StepOfferResponse>;
  locale: Locale;
  changing: boolean;
  onChange(): void;
}) {
  const own = appointmentTexts[locale];
  const check = useCheckAgain(offer);
  const [asked, setAsked] = useState(false);
  const wait = new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(check.waitSeconds);
  return (
    <>
      <Notice tone="info">{asked ? own.stillNone : own.none}</Notice>
      <Button
        inactive={!check.ready}
        busy={offer.isFetching}
        busyText={own.checking}
        aria-describedby={check.ready ? undefined : 'appointment-check-again-hint'}
        onClick={() => {
          setAsked(true);
          check.checkAgain();
        }}
      >
        {own.checkAgain}
      </Button>
      {!check.ready && (
        <p id="appointment-check-again-hint" className="hint">
          {own.checkAgainIn(wait)}
        </p>
      )}
      <Button variant="secondary" busy={changing} onClick={onChange}>
        {own.changePostcode}
      </Button>
    </>
  );
}
