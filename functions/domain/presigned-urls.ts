/**
 * How long a presigned GET of a stored image (thumbnail, full image, download) stays valid, in seconds: 15 minutes
 * (docs/product-spec.md §2 "Downloads"; docs/architecture.md §3, image URLs). Pure: the URL signers and the use cases
 * that tell the browser when the URLs expire share this one number.
 */
export const DOWNLOAD_URL_TTL_SECONDS = 900;
