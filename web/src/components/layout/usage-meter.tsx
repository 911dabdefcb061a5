import './usage-meter.css';

type UsageMeterProps = {
  /** e.g. "1.2 GiB of 20 GiB used" */
  label: string;
  percent: number;
};

/** A thin bar with its caption, showing how full the storage is. */
export function UsageMeter({ label, percent }: UsageMeterProps) {
  return (
    <div className="usage-meter">
      <div
        className="usage-meter__track"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={label}
        aria-label={label}
      >
        <div className="usage-meter__fill" style={{ inlineSize: `${percent}%` }} data-level={percent >= 90 ? 'high' : 'normal'} />
      </div>
      <p className="usage-meter__label">{label}</p>
    </div>
  );
}
