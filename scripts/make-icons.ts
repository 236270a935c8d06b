/**
 * `npm run icons`: renders the app icons of public/manifest.webmanifest and the iOS home screen icon
 * from public/logo.svg with Debian's Chromium (installable app). The PNGs are
 * committed; run this again only when the logo changes.
 *
 * - icon-192.png, icon-512.png (purpose any): the logo alone on a transparent square; the logo's
 *   own drawing keeps a margin inside its 64×64 box.
 * - icon-maskable-512.png: the light pink page background (#ffe4ef) to the edges, the logo at 70% of
 *   the side, centred. The bus's farthest corner is then 35.6 of the logo's 64 units from the
 *   centre, 199 px at 512 px: inside the maskable safe zone, the centred circle of radius 40% (205 px).
 * - apple-touch-icon.png (180×180): iOS fills transparency with black and rounds the corners
 *   itself, so it uses the maskable layout.
 * - public/favicon.ico: the logo at 16, 32 and 48 px (png-to-ico), for the browsers and tools that
 *   ask for /favicon.ico whatever the page's <link rel="icon"> says (an error page has none).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import pngToIco from 'png-to-ico';

/** The light pink background of app/styles/base.css (--bg) and of the manifest. */
const BACKGROUND = '#ffe4ef';
/** Side of the logo's box in a padded icon, as a share of the icon's side (see the safe zone above). */
const PADDED_LOGO_SHARE = 0.7;

const icons = [
  { file: 'icon-192.png', size: 192, padded: false },
  { file: 'icon-512.png', size: 512, padded: false },
  { file: 'icon-maskable-512.png', size: 512, padded: true },
  { file: 'apple-touch-icon.png', size: 180, padded: true },
];

const logo = readFileSync(new URL('../public/logo.svg', import.meta.url), 'utf8');
const outDir = new URL('../public/icons/', import.meta.url);
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, padded } of icons) {
    const logoSide = padded ? Math.round(size * PADDED_LOGO_SHARE) : size;
    const svg = logo.replace('<svg ', `<svg width="${logoSide}" height="${logoSide}" `);
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;` +
        `background:${padded ? BACKGROUND : 'transparent'}">${svg}</body>`,
    );
    await page.screenshot({ path: new URL(file, outDir).pathname, omitBackground: !padded });
    console.info(`public/icons/${file}: ${size}×${size}`);
  }
  const favicon: Buffer[] = [];
  for (const size of [16, 32, 48]) {
    await page.setViewportSize({ width: size, height: size });
    const svg = logo.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(
      `<body style="margin:0;width:${size}px;height:${size}px;background:transparent">${svg}</body>`,
    );
    favicon.push(await page.screenshot({ omitBackground: true }));
  }
  writeFileSync(new URL('../public/favicon.ico', import.meta.url), await pngToIco(favicon));
  console.info('public/favicon.ico: 16, 32 and 48 px');
} finally {
  await browser.close();
}
