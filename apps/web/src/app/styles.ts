/**
 * The visitor pages' styles, inlined into the first HTML: nothing to fetch before the headline
 * paints (architecture §3). Sizes follow visitor-behaviour §2.4: video up to 1000 px, buttons 350/450/850 px.
 */
export const STYLES = `
*{box-sizing:border-box}html,body{margin:0}body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#0a0a0a;color:#fafafa;line-height:1.4}
a{color:inherit}
.screen{min-height:100vh;padding:24px 16px}.screen-center{display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center}
.not-found{background:#000;color:#fff}
.expired{background:#111 center/cover no-repeat}.expired .highlight{font-weight:700;color:#facc15}
.spinner{width:48px;height:48px;border-radius:50%;border:4px solid rgba(255,255,255,.2);border-top-color:#fff;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
.funnel,.landing{min-height:100vh;display:flex;flex-direction:column;background:#0a0a0a center/cover no-repeat}
.funnel-page,.landing-main{flex:1;width:100%;max-width:1000px;margin:0 auto;padding:24px 16px;text-align:center}
.headline{font-size:clamp(1.5rem,5vw,2.5rem);line-height:1.2;margin:.5em 0}.topline,.subheadline{font-size:1.1rem;margin:.5em 0}
.landing-chat .landing-main{display:flex;flex-direction:column;justify-content:center}
.site-footer{padding:24px 16px;font-size:.75rem;color:#a1a1aa;text-align:center;max-width:1000px;margin:0 auto}
.site-footer p{margin:.5em 0}
.preview-bar{position:fixed;top:12px;right:12px;display:flex;gap:8px;align-items:center;z-index:50}
.funnel-page:has(.preview-bar),.landing-main:has(.preview-bar){padding-top:64px}
.preview-badge{background:#f59e0b;color:#111;font-weight:700;font-size:.8rem;padding:6px 10px;border-radius:999px}
.round-arrow{width:40px;height:40px;border-radius:50%;border:0;background:#fff;color:#111;font-size:1.2rem;cursor:pointer}
.legal-page{max-width:760px;margin:0 auto;padding:32px 16px;background:#fff;color:#18181b;min-height:100vh}
.legal-page h2{font-size:1.1rem;margin-top:1.5em}
.modal-backdrop{position:fixed;inset:0;z-index:100;display:flex;align-items:center;justify-content:center;padding:16px;background:rgba(0,0,0,.7)}
.modal{width:100%;max-width:420px;background:#fff;color:#18181b;border-radius:12px;padding:24px;text-align:center;box-shadow:0 10px 40px rgba(0,0,0,.5)}
.modal-title{font-size:1.4rem;margin:0 0 .5em}.modal-text{margin:.5em 0;color:#3f3f46}
.modal-actions{display:flex;gap:12px;justify-content:center;margin-top:20px;flex-wrap:wrap}
.modal-button{display:inline-block;min-width:120px;padding:12px 20px;border:0;border-radius:8px;background:#16a34a;color:#fff;font:inherit;font-weight:700;text-decoration:none;cursor:pointer}
.modal-button-secondary{background:#e4e4e7;color:#18181b}
.modal-button:focus-visible,.video-error-button:focus-visible{outline:3px solid #facc15;outline-offset:2px}
.video-error{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:12px;width:100%;aspect-ratio:16/9;max-width:1000px;margin:0 auto;background:#18181b;color:#fafafa;border-radius:8px;padding:16px;text-align:center}
.video-error-title{margin:0;font-weight:700;font-size:1.1rem}
.video-error-button{padding:10px 18px;border:0;border-radius:8px;background:#fff;color:#111;font:inherit;font-weight:700;cursor:pointer}
.next-video-overlay{position:fixed;inset:0;z-index:90;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:16px;background:rgba(0,0,0,.8);color:#fff;text-align:center}
.video-frame{position:relative;width:100%;max-width:1000px;aspect-ratio:16/9;margin:16px auto;background:#000;border-radius:8px;overflow:hidden}
.video-mount,.video-mount>*{position:absolute;inset:0;width:100%;height:100%;border:0}
.video-element{background:#000;object-fit:contain}
.video-facade{position:absolute;inset:0;display:flex;align-items:center;justify-content:center}
.video-facade-play{width:72px;height:72px;border-radius:50%;background:rgba(255,255,255,.15);position:relative}
.video-facade-play::after{content:"";position:absolute;left:29px;top:22px;border-style:solid;border-width:14px 0 14px 22px;border-color:transparent transparent transparent #fff}
.video-frame .video-error{position:absolute;inset:0;max-width:none;border-radius:0}
.cta{display:flex;justify-content:center;margin:24px auto;visibility:hidden}.cta-visible{visibility:visible}
.cta-button{width:100%;max-width:350px;min-height:56px;padding:14px 20px;border:0;border-radius:10px;font:inherit;font-size:1.15rem;font-weight:700;cursor:pointer;box-shadow:0 6px 20px rgba(0,0,0,.35)}
.cta-visible .cta-button{animation:bounce 3s ease-in-out infinite}
.cta-button[disabled]{cursor:default}.cta-button:focus-visible{outline:3px solid #facc15;outline-offset:3px}
.cta-copy>*{margin:0}
@keyframes bounce{0%,20%,100%{transform:translateY(0)}7%{transform:translateY(-10px)}14%{transform:translateY(-4px)}}
@media (min-width:640px){.cta-button{max-width:450px}}@media (min-width:1024px){.cta-button{max-width:850px}}
@media (prefers-reduced-motion:reduce){.cta-visible .cta-button{animation:none}}
.fake-progress{position:relative;height:28px;max-width:1000px;margin:0 auto 12px;background:rgba(255,255,255,.15);border-radius:999px;overflow:hidden;text-align:center}
.fake-progress-fill{position:absolute;inset:0;background:#16a34a;transform-origin:left center;transition:transform 1s ease-out}
.fake-progress-label{position:relative;display:block;line-height:28px;font-size:.85rem;font-weight:700;transition:opacity .3s}
.countdown{height:84px;max-width:1000px;margin:0 auto 12px;padding:8px 12px;background:#b91c1c;color:#fff;border-radius:8px;display:flex;flex-direction:column;justify-content:center;overflow:hidden}
.countdown p{margin:0}.countdown-title{font-weight:700;font-size:.95rem}.countdown-expired{font-weight:700;font-size:1.1rem}
.countdown-units{display:flex;gap:12px;justify-content:center;font-variant-numeric:tabular-nums;margin-top:4px}
.countdown-unit{display:flex;flex-direction:column;align-items:center;min-width:48px}.countdown-unit strong{font-size:1.4rem;line-height:1.1}.countdown-unit small{font-size:.7rem}
.online-count{height:1.5em;line-height:1.5em;margin:8px 0;font-size:.9rem;color:#d4d4d8}
.online-dot{display:inline-block;width:8px;height:8px;margin-right:6px;border-radius:50%;background:#ef4444;vertical-align:middle}
.fomo{position:fixed;bottom:16px;z-index:60;display:flex;gap:10px;align-items:center;max-width:min(340px,calc(100vw - 32px));padding:10px 14px;background:#fff;color:#18181b;border-radius:10px;box-shadow:0 8px 30px rgba(0,0,0,.35);animation:fomo-in .5s ease-out;transition:opacity .5s}
.fomo-left{left:16px}.fomo-right{right:16px}.fomo-leaving{opacity:0}.fomo-flag{flex:none;border-radius:2px}
.fomo-text{margin:0;font-size:.9rem}.fomo-place,.fomo-ago{display:block;color:#71717a;font-size:.75rem}
@keyframes fomo-in{from{opacity:0}to{opacity:1}}
.next-video-caption{margin:0;font-size:1.25rem}.next-video-count{margin:0;font-size:3rem;font-weight:700;line-height:1}
`;
