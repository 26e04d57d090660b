// Starts Swagger UI (GET /docs) on this service's OpenAPI document, whose URL the
// view (web/views/docs.py) puts in as a JSON string for the placeholder of `url`.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: __SPEC_URL__,
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout"
  });
});
