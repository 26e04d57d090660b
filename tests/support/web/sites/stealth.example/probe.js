// What a page, a frame or a worker can see of the browser it runs in; posted
// to /__report/<where> on the page's own host (the fixture web logs it).
async function tcProbe() {
  const nav = self.navigator, data = nav.userAgentData;
  let hints = null;
  if (data) {
    const high = await data.getHighEntropyValues(["platform", "platformVersion", "architecture", "bitness",
                                                  "fullVersionList", "uaFullVersion", "model"]);
    hints = { brands: data.brands, mobile: data.mobile, platform: data.platform, high };
  }
  return { webdriver: nav.webdriver, userAgent: nav.userAgent, appVersion: nav.appVersion,
           languages: nav.languages, language: nav.language, hints,
           timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
           automation: Object.getOwnPropertyNames(self).filter((n) => /^([a-z]){3}_.*_(Array|Promise|Symbol)$|^\$?cdc_/.test(n)) };
}
