// Written by npm run messages: the compiled modules it imports, in one.
import part0 from './en/common.js';
import part1 from './en/home.js';
import part2 from './en/install.js';
import part3 from './en/howto.js';
import part4 from './en/faq.js';
import part5 from './en/privacy.js';
import part6 from './en/contact.js';
import part7 from './en/ads.js';
import part8 from './en/edge.js';
export default { ...part0, ...part1, ...part2, ...part3, ...part4, ...part5, ...part6, ...part7, ...part8 };
