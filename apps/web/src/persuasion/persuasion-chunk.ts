/** The browser's chunk of timed persuasion elements (see `deferred-components-browser`). */
export { CountdownBanner } from './CountdownBanner';
export { FakeProgressBar } from './FakeProgressBar';
export { FomoPopups } from './FomoPopups';
export { OnlineCount } from './OnlineCount';
