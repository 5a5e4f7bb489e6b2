import { useId, useState } from 'react';
import { useMessages } from '../i18n/i18n';
import { Button } from '../ui/Button';
import { Field, Input } from '../ui/form';
import { analyticsMessages } from './messages';
import styles from './analytics.module.css';
import { daysIn, presetOf, type DayRange, type RangePreset, type RangeSearch } from './range';
import { MAX_ANALYTICS_DAYS } from '@embudo/contracts';

/**
 * The days a screen counts: today, 7 days, 30 days or days chosen by hand (days of the account's
 * time zone). The choice lives in the address.
 */
export function RangePicker({
  search,
  range,
  onChange,
}: {
  search: RangeSearch;
  /** The days asked for now, to start the custom fields from. */
  range: DayRange | undefined;
  onChange: (next: RangeSearch) => void;
}) {
  const t = useMessages(analyticsMessages);
  const preset = presetOf(search);
  const [custom, setCustom] = useState(preset === 'custom');
  const labels: Record<Exclude<RangePreset, 'custom'>, string> = {
    today: t('today'),
    '7d': t('last7'),
    '30d': t('last30'),
  };
  return (
    <div className={styles.rangePicker}>
      <div className={styles.segmented} role="group" aria-label={t('rangeLabel')}>
        {(['today', '7d', '30d'] as const).map((value) => (
          <button
            key={value}
            type="button"
            className={styles.segment}
            aria-pressed={!custom && preset === value}
            onClick={() => {
              setCustom(false);
              onChange({ range: value });
            }}
          >
            {labels[value]}
          </button>
        ))}
        <button
          type="button"
          className={styles.segment}
          aria-pressed={custom}
          aria-expanded={custom}
          onClick={() => {
            setCustom(true);
          }}
        >
          {t('custom')}
        </button>
      </div>
      {custom && range ? (
        <CustomRange
          initial={range}
          onApply={(days) => {
            onChange({ range: 'custom', ...days });
          }}
        />
      ) : null}
    </div>
  );
}

function CustomRange({ initial, onApply }: { initial: DayRange; onApply: (range: DayRange) => void }) {
  const t = useMessages(analyticsMessages);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const id = useId();
  const complete = from !== '' && to !== '';
  const problem = !complete
    ? null
    : to < from
      ? t('toBeforeFrom')
      : daysIn({ from, to }) > MAX_ANALYTICS_DAYS
        ? t('tooManyDays', { max: MAX_ANALYTICS_DAYS })
        : null;
  return (
    <form
      className={styles.customRange}
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (complete && problem === null) onApply({ from, to });
      }}
    >
      <span id={`${id}-title`} className="visually-hidden">
        {t('custom')}
      </span>
      <Field label={t('from')}>
        <Input
          type="date"
          value={from}
          onChange={(event) => {
            setFrom(event.target.value);
          }}
        />
      </Field>
      <Field label={t('to')} error={problem ?? undefined}>
        <Input
          type="date"
          value={to}
          onChange={(event) => {
            setTo(event.target.value);
          }}
        />
      </Field>
      <Button type="submit" variant="primary" disabled={!complete || problem !== null}>
        {t('apply')}
      </Button>
    </form>
  );
}
