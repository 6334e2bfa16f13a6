/* errors FILE: every error path of the API, on the message in FILE and on made-up input:
 * NULL pointers, bad names and values, lengths no object has, messages over the size limit,
 * indexes out of range, and the objects' lifetimes (a report outlives its options and its
 * message). Run under valgrind, which also sees that nothing leaks and nothing is read out
 * of bounds. */
#include <stdint.h>

#include "common.h"

/* `mimebase_options_set` with NUL-terminated name and value. */
static mimebase_status set(mimebase_options *options, const char *name, const char *value) {
    return mimebase_options_set(options, name, strlen(name), value, strlen(value));
}

/* The options' error message contains `part`. */
static int error_mentions(const mimebase_options *options, const char *part) {
    mimebase_str error = mimebase_options_error(options);
    if (is_none(error))
        return 0;
    char *text = malloc(error.len + 1);
    CHECK(text != NULL);
    memcpy(text, error.ptr, error.len);
    text[error.len] = '\0';
    int found = strstr(text, part) != NULL;
    if (!found)
        fprintf(stderr, "error message \"%s\" does not mention \"%s\"\n", text, part);
    free(text);
    return found;
}

static void options_errors(void) {
    mimebase_options *options = mimebase_options_new();
    CHECK(options != NULL);
    CHECK(is_none(mimebase_options_error(options)));
    CHECK(is_none(mimebase_options_error(NULL)));

    CHECK(set(NULL, "resolver", "whatwg") == MIMEBASE_ERROR_NULL);
    CHECK(mimebase_options_set(options, NULL, 3, "x", 1) == MIMEBASE_ERROR_NULL);
    CHECK(mimebase_options_set(options, "resolver", 8, NULL, 6) == MIMEBASE_ERROR_NULL);
    CHECK(error_mentions(options, "NULL"));
    /* NULL with length 0 is the empty string: an unknown name, an invalid value. */
    CHECK(mimebase_options_set(options, NULL, 0, "x", 1) == MIMEBASE_ERROR_INVALID);
    CHECK(error_mentions(options, "unknown option \"\""));
    CHECK(mimebase_options_set(options, "resolver", 8, NULL, 0) == MIMEBASE_ERROR_INVALID);
    CHECK(mimebase_options_set(options, "resolver", SIZE_MAX, "whatwg", 6) ==
          MIMEBASE_ERROR_INVALID);
    CHECK(error_mentions(options, "length"));

    CHECK(set(options, "no_such_option", "1") == MIMEBASE_ERROR_INVALID);
    CHECK(error_mentions(options, "unknown option \"no_such_option\""));
    CHECK(error_mentions(options, "max_message_bytes"));
    CHECK(set(options, "Resolver", "whatwg") == MIMEBASE_ERROR_INVALID);
    CHECK(set(options, "resolver", "fast") == MIMEBASE_ERROR_INVALID);
    CHECK(error_mentions(options, "\"fast\""));
    CHECK(error_mentions(options, "whatwg"));
    CHECK(set(options, "profile", "strict") == MIMEBASE_ERROR_INVALID);
    CHECK(error_mentions(options, "mhtml"));
    CHECK(set(options, "text_links", "yes") == MIMEBASE_ERROR_INVALID);
    CHECK(error_mentions(options, "true or false"));
    const char *bad_numbers[] = {"", "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.5",
                                 "999999999999999999999999999"};
    for (size_t i = 0; i < sizeof bad_numbers / sizeof bad_numbers[0]; i++) {
        CHECK(set(options, "max_urls", bad_numbers[i]) == MIMEBASE_ERROR_INVALID);
        CHECK(error_mentions(options, "max_urls"));
    }
    /* Not UTF-8. */
    CHECK(mimebase_options_set(options, "resolver", 8, "\xff", 1) == MIMEBASE_ERROR_INVALID);
    CHECK(error_mentions(options, "UTF-8"));
    CHECK(mimebase_options_set(options, "\xc3", 1, "1", 1) == MIMEBASE_ERROR_INVALID);
    CHECK(error_mentions(options, "UTF-8"));
    /* A name with a NUL inside is a different name, not a shorter one. */
    CHECK(mimebase_options_set(options, "resolver\0x", 10, "whatwg", 6) == MIMEBASE_ERROR_INVALID);

    /* Every name is accepted; a successful set leaves the last failure's message. */
    CHECK(set(options, "resolver", "whatwg") == MIMEBASE_OK);
    CHECK(error_mentions(options, "unknown option"));
    CHECK(set(options, "profile", "mhtml") == MIMEBASE_OK);
    CHECK(set(options, "retrieval_url", "http://example.com/dir/") == MIMEBASE_OK);
    CHECK(set(options, "retrieval_url", "") == MIMEBASE_OK);
    CHECK(set(options, "text_links", "false") == MIMEBASE_OK);
    const char *numbers[] = {"max_message_bytes", "max_urls", "max_depth", "max_entities",
                             "max_header_bytes", "max_decoded_bytes", "max_encoded_levels"};
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        CHECK(set(options, numbers[i], "1000") == MIMEBASE_OK);
    /* Names and values need no NUL: the lengths say where they end. */
    CHECK(mimebase_options_set(options, "resolverXYZ", 8, "rfc3986!", 7) == MIMEBASE_OK);

    mimebase_options_free(options);
    mimebase_options_free(NULL);
}

static void analyze_errors(const unsigned char *message, size_t len) {
    mimebase_report *report = (mimebase_report *)&report; /* not NULL: must be reset */
    CHECK(mimebase_analyze(message, len, NULL, NULL) == MIMEBASE_ERROR_NULL);
    CHECK(mimebase_analyze(NULL, 10, NULL, &report) == MIMEBASE_ERROR_NULL);
    CHECK(report == NULL);
    report = (mimebase_report *)&report;
    CHECK(mimebase_analyze(message, (size_t)PTRDIFF_MAX + 1, NULL, &report) ==
          MIMEBASE_ERROR_INVALID);
    CHECK(report == NULL);
    CHECK(mimebase_analyze(message, SIZE_MAX, NULL, &report) == MIMEBASE_ERROR_INVALID);

    /* Over the size limit: refused, nothing made. */
    mimebase_options *options = mimebase_options_new();
    CHECK(set(options, "max_message_bytes", "10") == MIMEBASE_OK);
    report = (mimebase_report *)&report;
    CHECK(len > 10);
    CHECK(mimebase_analyze(message, len, options, &report) == MIMEBASE_ERROR_TOO_LARGE);
    CHECK(report == NULL);
    /* At the limit: analyzed. */
    CHECK(mimebase_analyze(message, 10, options, &report) == MIMEBASE_OK);
    CHECK(report != NULL);
    mimebase_report_free(report);

    /* An empty message, NULL or not, is a message. */
    CHECK(mimebase_analyze(NULL, 0, NULL, &report) == MIMEBASE_OK);
    CHECK(mimebase_report_entity_count(report) == 1);
    mimebase_report_free(report);
    CHECK(mimebase_analyze(message, 0, NULL, &report) == MIMEBASE_OK);
    mimebase_report_free(report);

    /* A limit that cuts the analysis short: incomplete, not an error. */
    CHECK(set(options, "max_message_bytes", "100000000") == MIMEBASE_OK);
    CHECK(set(options, "max_urls", "0") == MIMEBASE_OK);
    CHECK(mimebase_analyze(message, len, options, &report) == MIMEBASE_OK);
    CHECK(mimebase_report_url_count(report) == 0);
    CHECK(mimebase_report_complete(report) == 0);
    mimebase_report_free(report);
    mimebase_options_free(options);

    /* The accessors with NULL. */
    CHECK(mimebase_report_complete(NULL) == 0);
    CHECK(mimebase_report_url_count(NULL) == 0);
    CHECK(mimebase_report_entity_count(NULL) == 0);
    CHECK(is_none(mimebase_report_json(NULL)));
    mimebase_url url;
    mimebase_entity entity;
    CHECK(mimebase_report_url(NULL, 0, &url) == MIMEBASE_ERROR_NULL);
    CHECK(is_none(url.part));
    CHECK(mimebase_report_entity(NULL, 0, &entity) == MIMEBASE_ERROR_NULL);
    CHECK(is_none(entity.part));
    CHECK(is_none(mimebase_report_url_ignored(NULL, 0)));
    mimebase_summary summary;
    CHECK(mimebase_report_summary(NULL, 0, &summary) == MIMEBASE_ERROR_NULL);
    CHECK(is_none(summary.subject) && is_none(summary.from));
    mimebase_report_free(NULL);
}

static void lifetimes(const char *path) {
    /* The report outlives both the options it was made with and the message's bytes: it
     * holds copies of what it hands out. Valgrind would see any read of freed memory. */
    size_t len = 0;
    unsigned char *message = read_file(path, &len);
    mimebase_options *options = mimebase_options_new();
    set_option(options, "resolver", "whatwg");
    mimebase_report *report = NULL;
    CHECK(mimebase_analyze(message, len, options, &report) == MIMEBASE_OK);
    mimebase_options_free(options);
    free(message);

    CHECK(mimebase_report_url_count(report) > 0);
    mimebase_url first;
    CHECK(mimebase_report_url(report, 0, &first) == MIMEBASE_OK);
    mimebase_str json = mimebase_report_json(report);
    /* Strings taken earlier stay valid, unchanged, while later ones are taken. */
    for (size_t i = 0; i < mimebase_report_url_count(report); i++) {
        mimebase_url url;
        CHECK(mimebase_report_url(report, i, &url) == MIMEBASE_OK);
        mimebase_entity entity;
        CHECK(mimebase_report_entity(report, 0, &entity) == MIMEBASE_OK);
    }
    mimebase_url first_again;
    CHECK(mimebase_report_url(report, 0, &first_again) == MIMEBASE_OK);
    CHECK(first.reference.ptr == first_again.reference.ptr);
    CHECK(first.reference.len == first_again.reference.len);
    /* The JSON record holds each URL's reference. */
    size_t found = 0;
    for (size_t at = 0; at + first.reference.len <= json.len; at++)
        if (memcmp(json.ptr + at, first.reference.ptr, first.reference.len) == 0)
            found++;
    CHECK(found > 0);
    mimebase_report_free(report);
}

static void empty_strings(void) {
    /* An empty value is not "none": its pointer is not NULL, and points to readable memory. */
    static const char message[] = "Content-Base: http://example.com/\r\n"
                                  "Content-Type: text/html\r\n\r\n<a href=\"\">x</a>";
    mimebase_report *report = NULL;
    CHECK(mimebase_analyze((const uint8_t *)message, sizeof message - 1, NULL, &report) ==
          MIMEBASE_OK);
    size_t empty = 0;
    for (size_t i = 0; i < mimebase_report_url_count(report); i++) {
        mimebase_url url;
        CHECK(mimebase_report_url(report, i, &url) == MIMEBASE_OK);
        if (url.reference.len == 0) {
            CHECK(url.reference.ptr != NULL);
            char copy[1] = {'x'};
            memcpy(copy, url.reference.ptr, url.reference.len);
            CHECK(copy[0] == 'x');
            (void)*(volatile const char *)url.reference.ptr; /* readable: valgrind would see */
            CHECK(str_eq(url.resolved, "http://example.com/"));
            empty++;
        }
    }
    CHECK(empty == 1);
    mimebase_report_free(report);
}

int main(int argc, char **argv) {
    CHECK(argc == 2);
    size_t len = 0;
    unsigned char *message = read_file(argv[1], &len);
    const char *version = mimebase_version();
    CHECK(version != NULL && strlen(version) >= 5);
    CHECK(mimebase_version() == version);
    options_errors();
    analyze_errors(message, len);
    free(message);
    lifetimes(argv[1]);
    empty_strings();
    fprintf(stderr, "errors: ok (libmimebase %s)\n", version);
    return 0;
}
