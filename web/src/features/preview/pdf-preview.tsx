import { useCallback } from 'react';
import { isCancelled } from '../../api/api-error';
import { downloadPdf, PdfSizeLimit } from '../../api/pdf-download';
import { PdfFrame, type PdfFrameLabels, type PdfLoader } from '../../components/preview/pdf-frame';

type PdfPreviewProps = {
  /** The URL of the file's bytes, as the client builds it. */
  url: string;
  downloadUrl: string;
  name: string;
  labels: PdfFrameLabels;
};

/** The PDF viewer fed with the file's bytes, fetched through the app's HTTP client. */
export function PdfPreview({ url, ...props }: PdfPreviewProps) {
  const load = useCallback<PdfLoader>(
    ({ signal, onProgress }) =>
      downloadPdf(url, { signal, onProgress }).catch((error: unknown) => {
        // A request cancelled elsewhere (a session ending) is no failure to show.
        if (isCancelled(error)) return { kind: 'cancelled' as const };
        throw error;
      }),
    [url],
  );
  return <PdfFrame load={load} sizeLimit={PdfSizeLimit} {...props} />;
}
