// What a bot-wall check needs from the page (main frame, a script body): returns
// {title, html (first 200,000 characters), text (first 20,000), textLength,
// captchas: [{kind, covering}], fields}.
const visible = (el) => {
  const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
  return r.width > 30 && r.height > 30 && s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
};
const covering = (el) => {
  for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
    const s = getComputedStyle(n);
    if (s.position !== 'fixed' && s.position !== 'absolute') continue;
    const r = n.getBoundingClientRect();
    if (r.width * r.height >= 0.5 * innerWidth * innerHeight) return true;
  }
  return false;
};
const captchas = [];
const add = (kind, el) => captchas.push({kind, covering: covering(el)});
for (const f of document.querySelectorAll('iframe')) {
  const src = f.src || '';
  if (!visible(f) || /size=invisible/.test(src) || f.closest('.grecaptcha-badge')) continue;
  if (/(google\.com|recaptcha\.net)\/recaptcha\/(api2|enterprise)\/(anchor|bframe)/.test(src)) add('recaptcha', f);
  else if (/hcaptcha\.com\/captcha/.test(src)) add('hcaptcha', f);
  else if (/challenges\.cloudflare\.com/.test(src)) add('turnstile', f);
  else if (/captcha-delivery\.com\/captcha/.test(src)) add('datadome', f);
}
for (const el of document.querySelectorAll('#px-captcha')) if (visible(el)) add('px-captcha', el);
let fields = 0;
for (const el of document.querySelectorAll('input, textarea, select')) {
  const type = (el.getAttribute('type') || 'text').toLowerCase();
  if (!['hidden', 'submit', 'button', 'image', 'reset', 'checkbox'].includes(type) && visible(el) &&
      !el.closest('.g-recaptcha, .h-captcha, .cf-turnstile')) fields++;
}
const text = document.body ? document.body.innerText.trim() : '';
return { title: document.title || '', html: document.documentElement.outerHTML.slice(0, 200000),
         text: text.slice(0, 20000), textLength: text.length, captchas, fields };
