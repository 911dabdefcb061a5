import { lazy, Suspense } from 'react';
import './qr-code.css';

// The QR encoder is only needed on share pages: it is fetched when the first code is drawn.
const QRCodeSVG = lazy(async () => ({ default: (await import('qrcode.react')).QRCodeSVG }));

type QrCodeProps = {
  /** The text to encode (an absolute URL). */
  value: string;
  /** Width and height in CSS pixels. */
  size: number;
  /** Accessible description of what the code leads to. */
  label: string;
};

/**
 * A QR code with error correction level M. Drawn dark on white in both themes: scanners expect
 * that contrast, and a quiet zone of white around it.
 */
export function QrCode({ value, size, label }: QrCodeProps) {
  return (
    <div className="qr-code" role="img" aria-label={label} data-size={size} style={{ inlineSize: size, blockSize: size }}>
      <Suspense fallback={null}>
        <QRCodeSVG value={value} size={size} level="M" marginSize={0} bgColor="#ffffff" fgColor="#111111" aria-hidden="true" focusable="false" />
      </Suspense>
    </div>
  );
}
