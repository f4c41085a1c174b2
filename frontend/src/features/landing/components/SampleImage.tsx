import type { ImgHTMLAttributes } from 'react';

/** Props of {@link SampleImage}: one of the shipped samples, its square size, and how this place shows it. */
export interface SampleImageProps extends Omit<
  ImgHTMLAttributes<HTMLImageElement>,
  'src' | 'alt' | 'width' | 'height'
> {
  sample: { src: string; alt: string };
  /** The file's width and height in px (the samples are square): 384 for headshots, 160 for selfies. */
  size: number;
}

/**
 * A sample image of the landing page (`public/images/`, drawn by `scripts/make-sample-images.ts`) at its intrinsic
 * size, so the browser reserves its box before it loads; the hero, the gallery strip and the selfies differ only in
 * how they load and frame it.
 */
export function SampleImage({ sample, size, ...rest }: SampleImageProps) {
  return <img src={sample.src} alt={sample.alt} width={size} height={size} {...rest} />;
}
