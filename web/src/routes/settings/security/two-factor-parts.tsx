import type { TwoFactorEnrolment } from '@burrow/protocol';
import { QrCode } from '../../../components/share/qr-code';
import './security.css';

/** The QR code of a new secret, with the key as text for apps that cannot scan. */
export function EnrolmentSecret({ enrolment, qrLabel, keyLabel }: { enrolment: TwoFactorEnrolment; qrLabel: string; keyLabel: string }) {
  // Groups of four are easier to type; apps ignore the spaces.
  const grouped = enrolment.secret.replace(/(.{4})(?=.)/g, '$1 ');
  return (
    <div className="two-factor__enrolment">
      <QrCode value={enrolment.uri} size={176} label={qrLabel} />
      <p className="two-factor__key">
        <span className="field__label">{keyLabel}</span>
        <code className="two-factor__secret" data-secret={enrolment.secret}>
          {grouped}
        </code>
      </p>
    </div>
  );
}

/** Recovery codes, shown once. */
export function RecoveryCodeList({ codes, title, help }: { codes: string[]; title: string; help: string }) {
  return (
    <div className="two-factor__recovery">
      <h3 className="two-factor__recovery-title">{title}</h3>
      <p className="form-hint">{help}</p>
      <ul className="two-factor__codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
