/* Helpers of the C tests: reading a file, checking a condition, printing JSON strings. */
#ifndef MIMEBASE_TEST_COMMON_H
#define MIMEBASE_TEST_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mimebase.h>

/* Fails the program, naming the condition and where it was checked. */
#define CHECK(condition)                                                                      \
    do {                                                                                      \
        if (!(condition)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition);    \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

/* The whole file at `path` in a buffer of its own (freed by the caller); its size in `*len`. */
static inline unsigned char *read_file(const char *path, size_t *len) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    size_t capacity = 4096, used = 0;
    unsigned char *data = malloc(capacity);
    CHECK(data != NULL);
    for (;;) {
        if (used == capacity) {
            capacity *= 2;
            data = realloc(data, capacity);
            CHECK(data != NULL);
        }
        size_t got = fread(data + used, 1, capacity - used, file);
        used += got;
        if (got == 0)
            break;
    }
    CHECK(!ferror(file));
    fclose(file);
    *len = used;
    return data;
}

/* True when `s` is "none" (NULL pointer, length 0); a string with a NULL pointer and a
 * nonzero length is never handed out. */
static inline int is_none(mimebase_str s) {
    CHECK(s.ptr != NULL || s.len == 0);
    return s.ptr == NULL;
}

/* True when `s` equals the NUL-terminated `text`. */
static inline int str_eq(mimebase_str s, const char *text) {
    return !is_none(s) && s.len == strlen(text) && memcmp(s.ptr, text, s.len) == 0;
}

/* Writes `s` as a JSON string (null for "none"), reading every byte of it. */
static inline void print_json_string(FILE *out, mimebase_str s) {
    if (is_none(s)) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* Sets option `name` to `value`, failing the program when the library refuses. */
static inline void set_option(mimebase_options *options, const char *name, const char *value) {
    mimebase_status status = mimebase_options_set(options, name, strlen(name), value, strlen(value));
    if (status != MIMEBASE_OK) {
        mimebase_str error = mimebase_options_error(options);
        fprintf(stderr, "mimebase_options_set(%s, %s): %d: %.*s\n", name, value, (int)status,
                (int)error.len, error.ptr);
        exit(1);
    }
}

#endif
