--[[
Copyright (c) the mimebase authors. Licensed under the Apache License, Version 2.0 or the MIT
license, at your option (see LICENSE-APACHE and LICENSE-MIT at the top of the mimebase
repository).
]]--

--[[[
-- @module mimebase
-- Adds to the task the links a reader's mail client would really open, as libmimebase resolves
-- them: against the base a message sets by `Content-Base`, `Content-Location`, `Base:`, an
-- HTML `<base>` wherever it stands, or a base inherited from an enclosing message. Runs as a
-- prefilter, so that multimap `type = "url"`, the RBL/SURBL rules and every other module see
-- those links with the ones rspamd's own parser found.
--
-- Enabled by a `mimebase { library = "..."; }` block (see README.md beside this file).
-- Calls libmimebase through LuaJIT's FFI, synchronously in the worker. Never fails mail because
-- of its own failure: a missing library, a message over `max_size` or an error inside
-- libmimebase is logged and the message is scanned without mimebase's links.
--]]

local rspamd_logger = require "rspamd_logger"
local rspamd_url = require "rspamd_url"
local lua_util = require "lua_util"

local N = 'mimebase'

if confighelp then
  rspamd_config:add_example(nil, N,
      'Adds the links a base decides (Content-Base, Content-Location, <base>, ...) to the task',
      [[
mimebase {
  # Path of libmimebase, or a name the dynamic loader finds (ldconfig)
  library = "libmimebase.so.0";
  # How a reference is resolved against its base: whatwg (what a reader's client opens),
  # rfc3986 or rfc1808
  resolver = "whatwg";
  # Larger messages are scanned without mimebase (bytes)
  max_size = 10485760;
  # At most this many links are added to a message
  max_urls = 10240;
}
]])
  return
end

local settings = {
  library = 'libmimebase.so.0',
  resolver = 'whatwg',
  -- Phishing mail is small; the cost and the memory of an analysis grow with the message
  -- (libmimebase keeps its records in memory until the task has read them).
  max_size = 10 * 1024 * 1024,
  -- rspamd's own parser keeps at most `options.max_urls` (10240 by default) per message.
  max_urls = 10240,
  symbol_check = 'MIMEBASE_CHECK',
  symbol_base_decided = 'MIMEBASE_BASE_DECIDED',
  symbol_attachment_link = 'MIMEBASE_ATTACHMENT_LINK',
  symbol_encrypted_opened = 'MIMEBASE_ENCRYPTED_OPENED',
  symbol_incomplete = 'MIMEBASE_INCOMPLETE',
  symbol_fail = 'MIMEBASE_FAIL',
}

-- Schemes whose URLs name a host that URL rules, multimap and the blocklists judge.
local injected_schemes = {
  http = true,
  https = true,
  ftp = true,
}

-- The C interface of libmimebase, as far as this module uses it: the declarations of its header
-- (capi/include/mimebase.h in mimebase's sources) as they are written there (a test checks it).
-- Strings handed out are UTF-8, not NUL-terminated, valid until their report is freed.
local cdef = [[
typedef enum {
    MIMEBASE_OK = 0,
    MIMEBASE_ERROR_NULL = 1,
    MIMEBASE_ERROR_INVALID = 2,
    MIMEBASE_ERROR_TOO_LARGE = 3,
    MIMEBASE_ERROR_INTERNAL = 4,
} mimebase_status;
typedef struct mimebase_options mimebase_options;
typedef struct mimebase_report mimebase_report;
typedef struct {
    const char *ptr;
    size_t len;
} mimebase_str;
typedef struct {
    mimebase_str part;
    mimebase_str source;
    mimebase_str reference;
    mimebase_str resolved;
    mimebase_str unresolved;
    mimebase_str base;
    mimebase_str base_source;
    mimebase_str target_part;
    int base_decided;
    int is_image;
} mimebase_url;
const char *mimebase_version(void);
mimebase_options *mimebase_options_new(void);
void mimebase_options_free(mimebase_options *options);
mimebase_status mimebase_options_set(mimebase_options *options,
                                     const char *name,
                                     size_t name_len,
                                     const char *value,
                                     size_t value_len);
mimebase_str mimebase_options_error(const mimebase_options *options);
mimebase_status mimebase_analyze(const uint8_t *bytes,
                                 size_t len,
                                 const mimebase_options *options,
                                 mimebase_report **out);
void mimebase_report_free(mimebase_report *report);
int mimebase_report_complete(const mimebase_report *report);
size_t mimebase_report_url_count(const mimebase_report *report);
mimebase_status mimebase_report_url(const mimebase_report *report, size_t index, mimebase_url *out);
typedef enum {
    MIMEBASE_OPENED_NONE = 0,
    MIMEBASE_OPENED_EMPTY = 1,
    MIMEBASE_OPENED_STATED = 2,
} mimebase_opened;
size_t mimebase_report_entity_count(const mimebase_report *report);
mimebase_opened mimebase_report_entity_opened(const mimebase_report *report,
                                              size_t index,
                                              mimebase_str *part);
]]

-- mimebase_status
local MIMEBASE_OK = 0
-- mimebase_opened
local MIMEBASE_OPENED_STATED = 2
local status_names = {
  [1] = 'null pointer',
  [2] = 'invalid argument',
  [3] = 'message too large',
  [4] = 'internal error',
}

local ffi -- LuaJIT's FFI, once loaded
local lib -- the loaded libmimebase
local options -- the mimebase_options of every analysis, made once per process

local function str(s)
  if s.ptr == nil then
    return nil
  end
  return ffi.string(s.ptr, s.len)
end

-- Loads the library and makes the options from the settings; on failure, the reason.
local function load_library()
  local ok, ffi_or_err = pcall(require, 'ffi')
  if not ok then
    return false, string.format('LuaJIT FFI is not available in this rspamd (%s)', ffi_or_err)
  end
  ffi = ffi_or_err
  -- A second load of this module in the same Lua state (config reload) finds the types there.
  pcall(ffi.cdef, cdef)

  local loaded, lib_or_err = pcall(ffi.load, settings.library)
  if not loaded then
    return false, string.format('cannot load the library %s: %s', settings.library, lib_or_err)
  end
  lib = lib_or_err

  local opts = lib.mimebase_options_new()
  if opts == nil then
    return false, 'mimebase_options_new failed (out of memory)'
  end
  opts = ffi.gc(opts, lib.mimebase_options_free)
  local wanted = {
    { 'resolver', tostring(settings.resolver) },
    { 'max_message_bytes', string.format('%d', settings.max_size) },
  }
  for _, kv in ipairs(wanted) do
    local name, value = kv[1], kv[2]
    if lib.mimebase_options_set(opts, name, #name, value, #value) ~= MIMEBASE_OK then
      return false, string.format('option %s = "%s": %s', name, value,
          str(lib.mimebase_options_error(opts)) or 'refused')
    end
  end
  options = opts

  return true
end

-- The URLs of the task, by their text, to tell which of mimebase's rspamd already has: true
-- for an ordinary one, 'content' for one rspamd's own readers of attachments found (its PDF
-- reader), which carry the `content` flag and which rspamd keeps out of `task:get_urls()`, so
-- that multimap, the RBL/SURBL rules and the phishing module do not see them.
local function known_urls(task)
  local known = {}
  local urls = task:get_urls({
    protocols = { 'http', 'https', 'ftp' },
    flags = { 'image', 'content' },
  }) or {}
  for _, u in ipairs(urls) do
    local flags = u:get_flags() or {}
    local text = u:get_text()
    if flags.content then
      known[text] = known[text] or 'content'
    else
      known[text] = true
    end
  end
  return known
end

-- True for a link found inside a file a reader opens: its source names the file's kind
-- (`pdf:annot/URI`, `calendar:ATTACH`, `shortcut:URL`, `office:relationship`), or it was found
-- in a member of an archive (its part is `2!/page.html`).
local function from_file(source, part)
  return (source and (source:match('^pdf:') or source:match('^calendar:')
      or source:match('^shortcut:') or source:match('^office:')))
      or (part and part:find('!/', 1, true))
end

-- Reads the report: adds the links rspamd lacks, inserts the informational symbols.
local function use_report(task, report)
  if lib.mimebase_report_complete(report) == 0 then
    task:insert_result(settings.symbol_incomplete, 1.0)
    rspamd_logger.infox(task, '%s: analysis cut short by a limit: some links may be missing', N)
  end

  local count = tonumber(lib.mimebase_report_url_count(report))
  local record = ffi.new('mimebase_url')
  local known -- made on the first URL worth adding
  local pool = task:get_mempool()
  local injected, decided_hosts, seen_decided = 0, {}, {}
  local file_hosts, seen_file = {}, {}

  for i = 0, count - 1 do
    if injected >= settings.max_urls then
      rspamd_logger.infox(task, '%s: added %s links, the max_urls limit; the rest are left out',
          N, injected)
      break
    end
    if lib.mimebase_report_url(report, i, record) == MIMEBASE_OK and record.resolved.ptr ~= nil then
      local resolved = ffi.string(record.resolved.ptr, record.resolved.len)
      local scheme = resolved:match('^(%a[%w+.-]*):')
      if scheme and injected_schemes[scheme:lower()] then
        if not known then
          known = known_urls(task)
        end
        local decided = record.base_decided ~= 0
        -- A link inside a file is added even when rspamd's own reader of that file found it:
        -- rspamd keeps those out of the rules' sight (the `content` flag).
        local in_file = from_file(str(record.source), str(record.part))
        -- Most links are rspamd's own, written as rspamd writes them: those are passed over
        -- without parsing them again (the costly step). The rest are parsed, and compared in
        -- rspamd's normal form.
        if decided or in_file or known[resolved] ~= true then
          local flags = nil
          if record.is_image ~= 0 then
            flags = { 'image' }
          end
          local u = rspamd_url.create(pool, resolved, flags)
          if u and known[u:get_text()] == 'content' then
            -- rspamd keeps one URL per string, and inject_url leaves the copy already there:
            -- the one rspamd's own reader of the file made, with the `content` flag that the
            -- rules do not read. The same link with its fragment cut, or an empty one added,
            -- is another string to rspamd and the same resource to the reader (RFC 3986 §3.5:
            -- a fragment is not sent to the server), so that form is added instead.
            local at = resolved:find('#', 1, true)
            local other = at and resolved:sub(1, at - 1) or (resolved .. '#')
            u = rspamd_url.create(pool, other, flags) or u
          end
          if u then
            local text = u:get_text()
            if known[text] ~= true then
              known[text] = true
              known[resolved] = true
              task:inject_url(u)
              injected = injected + 1
              lua_util.debugm(N, task, 'added %s (%s, base %s from %s)', text,
                  str(record.source), str(record.base), str(record.base_source))
            end
            if in_file then
              local host = u:get_host()
              if host and not seen_file[host] then
                seen_file[host] = true
                file_hosts[#file_hosts + 1] = host
              end
            end
            if decided then
              local host = u:get_host()
              if host and not seen_decided[host] then
                seen_decided[host] = true
                decided_hosts[#decided_hosts + 1] = host
              end
            end
          end
        end
      end
    end
  end

  if #decided_hosts > 0 then
    task:insert_result(settings.symbol_base_decided, 1.0, decided_hosts)
  end
  if #file_hosts > 0 then
    task:insert_result(settings.symbol_attachment_link, 1.0, file_hosts)
  end

  -- Encrypted files that a password the message states opened: the sender wrote the password
  -- beside the file, which is how a file is hidden from filters that cannot open it.
  local entities = tonumber(lib.mimebase_report_entity_count(report))
  local part = ffi.new('mimebase_str')
  local stated = {}
  for i = 0, entities - 1 do
    if tonumber(lib.mimebase_report_entity_opened(report, i, part)) == MIMEBASE_OPENED_STATED then
      stated[#stated + 1] = str(part)
    end
  end
  if #stated > 0 then
    task:insert_result(settings.symbol_encrypted_opened, 1.0, stated)
  end
end

local function mimebase_check(task)
  local content = task:get_content()
  if not content then
    return
  end
  local len = content:len()
  if len > settings.max_size then
    rspamd_logger.infox(task, '%s: message of %s bytes is over max_size (%s): scanned without mimebase',
        N, len, settings.max_size)
    task:insert_result(settings.symbol_fail, 1.0, 'too large')
    return
  end

  local out = ffi.new('mimebase_report *[1]')
  local status = lib.mimebase_analyze(ffi.cast('const uint8_t *', content:ptr()), len, options, out)
  if status ~= MIMEBASE_OK then
    local why = status_names[tonumber(status)] or string.format('status %s', tonumber(status))
    rspamd_logger.errx(task, '%s: mimebase_analyze failed: %s: scanned without mimebase', N, why)
    task:insert_result(settings.symbol_fail, 1.0, why)
    return
  end

  local report = out[0]
  local ok, err = pcall(use_report, task, report)
  lib.mimebase_report_free(report)
  if not ok then
    rspamd_logger.errx(task, '%s: reading the report failed: %s: scanned without some of its links',
        N, err)
    task:insert_result(settings.symbol_fail, 1.0, 'internal error')
  end
end

local opts = rspamd_config:get_all_opt(N)
if not opts then
  -- Unreachable through rspamd's loader (no `mimebase` block: not loaded), kept for --lua-env.
  lua_util.disable_module(N, 'config')
  return
end
settings = lua_util.override_defaults(settings, opts)
settings.max_size = tonumber(settings.max_size)
settings.max_urls = tonumber(settings.max_urls)
if not settings.max_size or settings.max_size < 0 or not settings.max_urls or settings.max_urls < 0 then
  rspamd_logger.errx(rspamd_config, '%s: max_size and max_urls must be numbers of at least 0: '
      .. 'module disabled, mail is scanned without it', N)
  lua_util.disable_module(N, 'config')
  return
end

local loaded, why = load_library()
if not loaded then
  rspamd_logger.errx(rspamd_config, '%s: %s: module disabled, mail is scanned without it', N, why)
  lua_util.disable_module(N, 'fail')
  return
end
rspamd_logger.infox(rspamd_config, '%s: libmimebase %s loaded from %s; resolver %s, max_size %s bytes',
    N, ffi.string(lib.mimebase_version()), settings.library, settings.resolver, settings.max_size)

local id = rspamd_config:register_symbol({
  name = settings.symbol_check,
  type = 'prefilter',
  callback = mimebase_check,
  -- After the settings module (top), before every other prefilter and every filter.
  priority = lua_util.symbols_priorities.high,
  flags = 'empty,nostat',
  group = N,
})
-- The symbols the check inserts, each scored 0 by default: informational.
local inserted = {
  { settings.symbol_base_decided, 'A link whose target a base decided (Content-Base, '
      .. 'Content-Location, Base:, <base>, inherited): informational' },
  { settings.symbol_attachment_link, 'A link inside a file a reader opens (PDF, calendar, '
      .. 'shortcut, office document, archive member): informational' },
  { settings.symbol_encrypted_opened, 'An encrypted attachment opened with a password the '
      .. 'message itself states: informational' },
  { settings.symbol_incomplete, 'mimebase stopped at one of its limits: some links may be missing' },
  { settings.symbol_fail, 'mimebase did not analyse the message (too large, or an error): '
      .. 'scanned without it' },
}
for _, symbol in ipairs(inserted) do
  rspamd_config:register_symbol({
    name = symbol[1],
    parent = id,
    type = 'virtual',
    flags = 'nostat',
    score = 0.0,
    group = N,
    description = symbol[2],
  })
end
