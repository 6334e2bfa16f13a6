/* version: the smallest program that links with libmimebase, built with the flags of
 * `pkg-config --cflags --libs mimebase` (and, statically, of `pkg-config --static`). Analyzes
 * a message with a `Content-Base` and checks that its link resolves against it. */
#include "common.h"

int main(void) {
    static const char message[] =
        "Content-Base: http://example.com/news/\r\n"
        "Content-Type: text/html\r\n"
        "\r\n"
        "<a href=\"today.html\">today</a>\r\n";
    mimebase_report *report = NULL;
    CHECK(mimebase_analyze((const uint8_t *)message, sizeof message - 1, NULL, &report) ==
          MIMEBASE_OK);
    CHECK(mimebase_report_complete(report) == 1);
    CHECK(mimebase_report_url_count(report) == 2);
    mimebase_url url;
    CHECK(mimebase_report_url(report, 1, &url) == MIMEBASE_OK);
    CHECK(str_eq(url.source, "html:a@href"));
    CHECK(str_eq(url.resolved, "http://example.com/news/today.html"));
    CHECK(str_eq(url.base_source, "header:Content-Base"));
    CHECK(url.base_decided == 1 && url.is_image == 0);
    printf("libmimebase %s: %.*s\n", mimebase_version(), (int)url.resolved.len, url.resolved.ptr);
    mimebase_report_free(report);
    return 0;
}
