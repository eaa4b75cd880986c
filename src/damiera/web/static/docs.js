// The API documentation page (/docs): Swagger UI from the site's own copy, started here
// because the site's Content-Security-Policy allows no inline script.
const root = document.getElementById("swagger-ui");
window.ui = window.SwaggerUIBundle({ url: root.dataset.spec, dom_id: "#swagger-ui" });
