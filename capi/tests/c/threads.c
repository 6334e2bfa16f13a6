/* threads FILE...: the library on several threads at once. Each thread analyzes every file,
 * in an order of its own, into reports of its own, with one options object shared by all, and
 * compares each JSON record with the one the main thread made alone; then all threads read
 * one shared report at the same time (its JSON is made by whichever asks first). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "common.h"

enum { THREADS = 4, ROUNDS = 2 };

static int file_count;
static char **files;
static char **expected; /* the JSON record of each file, NUL-terminated */
static mimebase_options *shared_options;
static mimebase_report *shared_report;
static pthread_barrier_t start;

static char *json_of(const char *path) {
    size_t len = 0;
    unsigned char *message = read_file(path, &len);
    mimebase_report *report = NULL;
    CHECK(mimebase_analyze(message, len, shared_options, &report) == MIMEBASE_OK);
    free(message);
    mimebase_str json = mimebase_report_json(report);
    char *copy = malloc(json.len + 1);
    CHECK(copy != NULL);
    memcpy(copy, json.ptr, json.len);
    copy[json.len] = '\0';
    mimebase_report_free(report);
    return copy;
}

static void *analyze_all(void *arg) {
    int id = (int)(size_t)arg;
    for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < file_count; k++) {
            int i = (k + id * 7 + round) % file_count;
            char *json = json_of(files[i]);
            if (strcmp(json, expected[i]) != 0) {
                fprintf(stderr, "thread %d: %s: JSON differs from the single-threaded one\n", id,
                        files[i]);
                exit(1);
            }
            free(json);
        }
    }
    return NULL;
}

static void *read_shared(void *arg) {
    mimebase_str *json = arg;
    pthread_barrier_wait(&start);
    *json = mimebase_report_json(shared_report);
    size_t count = mimebase_report_url_count(shared_report);
    for (size_t i = 0; i < count; i++) {
        mimebase_url url;
        CHECK(mimebase_report_url(shared_report, i, &url) == MIMEBASE_OK);
        CHECK(!is_none(url.reference));
    }
    return NULL;
}

int main(int argc, char **argv) {
    CHECK(argc >= 2);
    file_count = argc - 1;
    files = argv + 1;
    shared_options = mimebase_options_new();
    set_option(shared_options, "resolver", "whatwg");
    expected = calloc((size_t)file_count, sizeof *expected);
    CHECK(expected != NULL);
    for (int i = 0; i < file_count; i++)
        expected[i] = json_of(files[i]);

    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, analyze_all, (void *)(size_t)t) == 0);
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(threads[t], NULL) == 0);

    size_t len = 0;
    unsigned char *message = read_file(files[0], &len);
    CHECK(mimebase_analyze(message, len, shared_options, &shared_report) == MIMEBASE_OK);
    free(message);
    mimebase_str seen[THREADS];
    CHECK(pthread_barrier_init(&start, NULL, THREADS) == 0);
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&threads[t], NULL, read_shared, &seen[t]) == 0);
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_join(threads[t], NULL) == 0);
    pthread_barrier_destroy(&start);
    /* One JSON record, made once, whichever thread asked first. */
    for (int t = 0; t < THREADS; t++) {
        CHECK(seen[t].ptr == seen[0].ptr && seen[t].len == seen[0].len);
        CHECK(seen[t].len == strlen(expected[0]) && memcmp(seen[t].ptr, expected[0], seen[t].len) == 0);
    }
    mimebase_report_free(shared_report);

    for (int i = 0; i < file_count; i++)
        free(expected[i]);
    free(expected);
    mimebase_options_free(shared_options);
    fprintf(stderr, "threads: %d threads x %d rounds x %d files ok\n", THREADS, ROUNDS, file_count);
    return 0;
}
