import { useEffect, useState } from 'react';

/**
 * An object URL (blob:) of `file` for showing it before it is uploaded, or null for none. Each URL is
 * revoked when `file` changes or the component unmounts, so a picked file's bytes are not kept. In
 * the browser only: on the server (and before the effect runs) it is null.
 */
export function useObjectUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}
