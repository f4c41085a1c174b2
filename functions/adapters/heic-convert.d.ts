// heic-convert ships no types; this declares the one call PrepareReferences makes (see its README).
declare module 'heic-convert' {
  interface HeicConvertOptions {
    /** The HEIC/HEIF file. */
    buffer: Buffer | Uint8Array | ArrayBuffer;
    format: 'JPEG' | 'PNG';
    /** JPEG quality, 0-1 (default 0.92). */
    quality?: number;
  }
  /** Decodes the primary image of a HEIC file (HEVC, in WebAssembly) and encodes it as JPEG or PNG. */
  function convert(options: HeicConvertOptions): Promise<Buffer>;
  export default convert;
}
