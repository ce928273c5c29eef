/* analyze_html.c — the report of `ramparts analyze` as one HTML file that opens offline: the
 * figures as JSON data and the plotting bundle (Vega-Lite and the report's own script, built
 * from web/report/ by esbuild and embedded in the binary at build time) inline. */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"

/* generated: build/generated/report_bundle.c (empty in the light build of `make play`) */
extern const char rp_report_bundle_js[];

/* JSON inside a <script> element: '<' written as \u003c so no "</script>" can end it early. */
static int write_script_json(FILE *out, const char *json)
{
    for (const char *c = json; *c; c++) {
        if (*c == '<' ? fputs("\\u003c", out) < 0 : fputc(*c, out) == EOF)
            return RP_EIO;
    }
    return RP_OK;
}

bool an_html_report_built(void)
{
    return rp_report_bundle_js[0] != '\0';
}

int an_write_html(FILE *out, const cJSON *report)
{
    const cJSON *title = cJSON_GetObjectItemCaseSensitive(report, "title");
    char *json = cJSON_PrintUnformatted(report);
    if (!json)
        return RP_ENOMEM;
    fprintf(out,
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>%s: balance report (ramparts analyze)</title>\n</head>\n<body>\n"
            "<main id=\"report\"><p>The report is drawn by its script: open this file in a "
            "browser with JavaScript on.</p></main>\n"
            "<script type=\"application/json\" id=\"report-data\">",
            cJSON_IsString(title) ? title->valuestring : "Ramparts");
    int rc = write_script_json(out, json);
    free(json);
    if (strstr(rp_report_bundle_js, "</script") != NULL)
        return RP_EINVAL; /* the build checks this too */
    fprintf(out, "</script>\n<script>\n%s\n</script>\n</body>\n</html>\n", rp_report_bundle_js);
    return rc == RP_OK && !ferror(out) ? RP_OK : RP_EIO;
}
