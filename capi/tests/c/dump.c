/* dump [-o NAME=VALUE]... FILE...: analyzes each file as one message and prints two lines per
 * file: the report's JSON record as the library returns it, then the report as its accessors
 * give it ({"complete":…,"entities":[…],"urls":[…]}: each URL with its `ignored` reason after
 * its fields, each entity with its summary, four nulls for a body part), so that the test
 * compares both with
 * `mimebase scan`. Checks the accessors' contracts on the way (counts, index out of range,
 * "none" strings), and frees each message before reading its report: the report holds its
 * own copies, so under valgrind a report that pointed into the message would show. */
#include "common.h"

static void print_url(FILE *out, const mimebase_url *url, mimebase_str ignored) {
    const mimebase_str fields[] = {url->part, url->source, url->reference, url->resolved,
                                   url->unresolved, url->base, url->base_source,
                                   url->target_part};
    fputc('[', out);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        print_json_string(out, fields[i]);
        fputc(',', out);
    }
    fprintf(out, "%d,%d,", url->base_decided, url->is_image);
    print_json_string(out, ignored);
    fputc(']', out);
}

static void print_entity(FILE *out, const mimebase_entity *entity,
                         const mimebase_summary *summary, mimebase_opened opened,
                         mimebase_str stating) {
    const mimebase_str fields[] = {entity->part, entity->kind, entity->parent,
                                   entity->content_type, entity->base, entity->base_source,
                                   entity->header_base, entity->header_base_source,
                                   entity->document_kind, entity->document_by};
    fputc('[', out);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        print_json_string(out, fields[i]);
        fputc(',', out);
    }
    fprintf(out, "%d", entity->attachment);
    const mimebase_str said[] = {summary->subject, summary->from, summary->date,
                                 summary->message_id};
    for (size_t i = 0; i < sizeof said / sizeof said[0]; i++) {
        fputc(',', out);
        print_json_string(out, said[i]);
    }
    fprintf(out, ",%d,", (int)opened);
    print_json_string(out, stating);
    fputc(']', out);
}

static void dump(const char *path, const mimebase_options *options) {
    size_t len = 0;
    unsigned char *message = read_file(path, &len);
    mimebase_report *report = NULL;
    mimebase_status status = mimebase_analyze(message, len, options, &report);
    /* The message may go as soon as the analysis is done. */
    memset(message, 0, len);
    free(message);
    if (status != MIMEBASE_OK) {
        fprintf(stderr, "%s: mimebase_analyze: %d\n", path, (int)status);
        exit(1);
    }
    CHECK(report != NULL);

    mimebase_str json = mimebase_report_json(report);
    CHECK(!is_none(json) && json.len > 0);
    /* Made once: the same string on every call. */
    mimebase_str again = mimebase_report_json(report);
    CHECK(again.ptr == json.ptr && again.len == json.len);
    CHECK(memchr(json.ptr, '\n', json.len) == NULL);
    fwrite(json.ptr, 1, json.len, stdout);
    fputc('\n', stdout);

    int complete = mimebase_report_complete(report);
    CHECK(complete == 0 || complete == 1);
    printf("{\"complete\":%d,\"entities\":[", complete);
    size_t entities = mimebase_report_entity_count(report);
    CHECK(entities >= 1);
    for (size_t i = 0; i < entities; i++) {
        mimebase_entity entity;
        CHECK(mimebase_report_entity(report, i, &entity) == MIMEBASE_OK);
        CHECK(!is_none(entity.part) && !is_none(entity.kind) && !is_none(entity.content_type));
        CHECK(!is_none(entity.base_source) && !is_none(entity.header_base_source));
        CHECK(is_none(entity.parent) == (i == 0));
        /* No base URL with the source `none`; `attachment` has none either. */
        CHECK(!str_eq(entity.base_source, "none") || is_none(entity.base));
        CHECK(is_none(entity.base) || !str_eq(entity.base_source, "attachment"));
        CHECK(is_none(entity.document_kind) == is_none(entity.document_by));
        CHECK(entity.attachment == 0 || entity.attachment == 1);
        /* A summary for the root and each encapsulated message, none for a body part. */
        mimebase_summary summary;
        summary.subject.ptr = "x";
        mimebase_status said = mimebase_report_summary(report, i, &summary);
        CHECK(said == (str_eq(entity.kind, "message") ? MIMEBASE_OK : MIMEBASE_ERROR_INVALID));
        if (said != MIMEBASE_OK)
            CHECK(is_none(summary.subject) && is_none(summary.message_id));
        /* How an encrypted file was opened; the part stating the password only when stated. */
        mimebase_str stating = {"x", 1};
        mimebase_opened opened = mimebase_report_entity_opened(report, i, &stating);
        CHECK(opened == MIMEBASE_OPENED_NONE || opened == MIMEBASE_OPENED_EMPTY ||
              opened == MIMEBASE_OPENED_STATED);
        CHECK(is_none(stating) == (opened != MIMEBASE_OPENED_STATED));
        if (i > 0)
            putchar(',');
        print_entity(stdout, &entity, &summary, opened, stating);
    }
    /* Past the last entity: none, and the part "none" too. */
    mimebase_str past = {"x", 1};
    CHECK(mimebase_report_entity_opened(report, entities, &past) == MIMEBASE_OPENED_NONE);
    CHECK(is_none(past));
    CHECK(mimebase_report_entity_opened(report, 0, NULL) == mimebase_report_entity_opened(report, 0, &past));
    printf("],\"urls\":[");
    size_t urls = mimebase_report_url_count(report);
    for (size_t i = 0; i < urls; i++) {
        mimebase_url url;
        CHECK(mimebase_report_url(report, i, &url) == MIMEBASE_OK);
        CHECK(!is_none(url.part) && !is_none(url.source) && !is_none(url.reference));
        CHECK(!is_none(url.base_source));
        /* Resolved, or the reason why not: one of the two. */
        CHECK(is_none(url.resolved) != is_none(url.unresolved));
        CHECK(!str_eq(url.base_source, "none") || is_none(url.base));
        CHECK(url.base_decided == 0 || url.base_decided == 1);
        CHECK(url.is_image == 0 || url.is_image == 1);
        /* A base decides only a resolved URL that had one. */
        CHECK(!url.base_decided || (!is_none(url.resolved) && !is_none(url.base)));
        mimebase_str ignored = mimebase_report_url_ignored(report, i);
        /* Only the URL of a base can be an ignored base. */
        CHECK(is_none(ignored) || str_eq(url.source, "html:base@href") ||
              str_eq(url.source, "svg:base@href") || str_eq(url.source, "header:Base") ||
              str_eq(url.source, "header:Content-Base") ||
              str_eq(url.source, "header:Content-Location"));
        if (i > 0)
            putchar(',');
        print_url(stdout, &url, ignored);
    }
    printf("]}\n");

    /* Past the end: refused, and the record left all "none". */
    mimebase_url url;
    url.part.ptr = "x";
    CHECK(mimebase_report_url(report, urls, &url) == MIMEBASE_ERROR_INVALID);
    CHECK(is_none(url.part) && is_none(url.resolved) && url.base_decided == 0);
    mimebase_entity entity;
    entity.part.ptr = "x";
    CHECK(mimebase_report_entity(report, entities, &entity) == MIMEBASE_ERROR_INVALID);
    CHECK(is_none(entity.part) && entity.attachment == 0);
    CHECK(is_none(mimebase_report_url_ignored(report, urls)));
    mimebase_summary summary;
    summary.from.ptr = "x";
    CHECK(mimebase_report_summary(report, entities, &summary) == MIMEBASE_ERROR_INVALID);
    CHECK(is_none(summary.from));
    CHECK(mimebase_report_summary(report, 0, NULL) == MIMEBASE_ERROR_NULL);

    mimebase_report_free(report);
}

int main(int argc, char **argv) {
    mimebase_options *options = mimebase_options_new();
    CHECK(options != NULL);
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            char *setting = argv[++i];
            char *equals = strchr(setting, '=');
            CHECK(equals != NULL);
            *equals = '\0';
            set_option(options, setting, equals + 1);
            continue;
        }
        dump(argv[i], options);
        files++;
    }
    mimebase_options_free(options);
    fprintf(stderr, "dump: %d files\n", files);
    return 0;
}
