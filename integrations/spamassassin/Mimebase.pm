# Mail::SpamAssassin::Plugin::Mimebase: the links of a message as a reader's mail client opens
# them, resolved by libmimebase, added to SpamAssassin's URI list.
#
# Licensed under the MIT license or the Apache License, Version 2.0, at your option, as the
# rest of mimebase (LICENSE-MIT, LICENSE-APACHE at the top of its repository).

=head1 NAME

Mail::SpamAssassin::Plugin::Mimebase - resolve every link against its base, as a reader's client does, for URI rules, blocklists and URIBLs

=head1 SYNOPSIS

  # mimebase.pre
  loadplugin Mail::SpamAssassin::Plugin::Mimebase Mimebase.pm

  # mimebase.cf
  ifplugin Mail::SpamAssassin::Plugin::Mimebase
    mimebase_library /usr/local/lib/libmimebase.so.0
    mimebase_resolver whatwg
    mimebase_max_size 67108864

    body     MIMEBASE_BASE_DECIDED  eval:mimebase_base_decided()
    describe MIMEBASE_BASE_DECIDED  A link's target was decided by a base
    score    MIMEBASE_BASE_DECIDED  0.001

    body     MIMEBASE_ATTACHMENT_LINK  eval:mimebase_attachment_link()
    describe MIMEBASE_ATTACHMENT_LINK  A link inside a file the reader opens (PDF, calendar, ...)
    score    MIMEBASE_ATTACHMENT_LINK  0.001

    body     MIMEBASE_ENCRYPTED_OPENED  eval:mimebase_encrypted_opened()
    describe MIMEBASE_ENCRYPTED_OPENED  An encrypted attachment opened with a password the message states
    score    MIMEBASE_ENCRYPTED_OPENED  0.001
  endif

=head1 DESCRIPTION

A relative link in an email message (C<E<lt>a href="claim.html"E<gt>>) leads where its base
says. The base may come from a C<E<lt>baseE<gt>> element anywhere in the HTML (the HTML
Standard takes the first one, even after the link), from a C<Content-Base>,
C<Content-Location> or C<Base> header field of the part (RFC 2110, RFC 2557, RFC 1808), or from
an enclosing part or message, down into forwarded C<message/rfc822> parts. SpamAssassin's own
HTML parser knows only a C<E<lt>baseE<gt>> that comes before the link: a link whose base comes
from a header field reaches its URI rules as a bare relative path, with no host, so
C<blocklist_uri_host>, C<uri> rules and the URIBL lookups of URIDNSBL never see where it leads
(the "baseStriker" evasion).

This plugin hands the whole message to libmimebase, the C library of mimebase, which finds the
effective base of every part and every URL a reader can reach (HTML and SVG attributes, CSS,
plain-text links as mail clients make them, URL-bearing header fields, and the links inside the
files a reader opens: PDF files, encrypted ones too when the message states their password,
calendar invitations, shortcut files, office documents, the members of ZIP archives), resolves
each one as a
reader's client does (the URL Standard by default), and adds every resolved URL to the
message's URI list with C<add_uri_detail_list>, as SpamAssassin's own PDFInfo plugin adds the
links it finds in PDF files. It does so in the C<parsed_metadata> callback, before any plugin
or rule reads the list: C<uri> rules, C<blocklist_uri_host> / C<welcomelist_uri_host>,
URIDNSBL, URILocalBL, HashBL and the others see these URLs with the ones SpamAssassin found
itself.

Each URL is added with the types SpamAssassin's HTML parser gives (the element's name: C<a>,
C<img>, C<form>, ...; C<parsed> for a link made of plain text; C<img> also for every image
source), plus the type C<mimebase>, so that a C<uri_detail> rule (URIDetail plugin) can tell
them apart. A link inside a file also has the type C<a> (a reader clicks it) and the file's
kind: C<pdf> (the type PDFInfo gives the links it finds), C<calendar>, C<shortcut>, C<office>,
and C<archive> for a link of a member of a ZIP archive.

The library is called through L<FFI::Platypus> (Debian and Ubuntu: C<libffi-platypus-perl>),
loaded once per process, in spamd's parent before it forks its children. It works under
spamd's taint mode.

=head2 When mimebase fails

The plugin never fails mail, and never changes a verdict, because of its own failure. When
FFI::Platypus or the library cannot be loaded, or the library lacks a function, it logs one
warning per process and SpamAssassin goes on without it; when a message is larger than
C<mimebase_max_size>, it logs a debug line (C<-D mimebase>) and skips that message; when the
analysis of a message fails (an internal error of the library, which is a bug to report),
it logs a warning and goes on with that message as if the plugin were not there.

=head1 ADMINISTRATOR SETTINGS

These settings are read from the site configuration only (C<local.cf>, C<mimebase.cf>), never
from a user's preferences: a path to a shared library is code that spamd would run.

=over 4

=item mimebase_library PATH   (default: libmimebase.so.0)

The shared library to load: a path, or a file name that the dynamic linker looks up in its
usual places (C</etc/ld.so.conf>, after C<ldconfig>). The default is the library's SONAME, as
C<make install> of mimebase's C library installs it under C</usr/local/lib>.

=item mimebase_resolver whatwg|rfc3986|rfc1808   (default: whatwg)

How references are resolved against their base: C<whatwg> is the URL Standard, as browsers and
mail clients apply it (the link a reader's client opens: C<http://Example.COM/a/../b> becomes
C<http://example.com/b>); C<rfc3986> and C<rfc1808> are those RFCs' algorithms as written.

=item mimebase_max_size BYTES   (default: 67108864)

The largest message analyzed, in bytes (the library's own default, 64 MiB). A larger message is
left to SpamAssassin alone, with a debug line. spamc (C<-s>, 500 KB) and amavis hand
SpamAssassin smaller messages than this unless configured otherwise.

=back

=head1 RULES

=over 4

=item eval:mimebase_base_decided()

True when at least one link's target was decided by a base: the link is resolved, against a
base, and the reference alone does not give the same URL (a relative reference such as
C<claim.html>, a scheme-relative one such as C<//host/x>). Informational: legitimate
newsletters use bases too. The report names the first such URL. C<mimebase.cf> defines
C<MIMEBASE_BASE_DECIDED> with it, scored 0.001.

=item eval:mimebase_attachment_link()

True when at least one link was found inside a file a reader opens: a PDF, a calendar
invitation, a shortcut file, an office document, or a member of a ZIP archive. Informational:
invoices carry links too. The report names the first such URL. C<mimebase.cf> defines
C<MIMEBASE_ATTACHMENT_LINK> with it, scored 0.001.

=item eval:mimebase_encrypted_opened()

True when an encrypted attachment (a PDF, a ZIP archive) was opened with a password that the
message itself states in a text or HTML part ("Password: 4821"): a sender who encrypts a file
and writes the password beside it wants a filter blind to what the reader sees. The report
names the part that states it. C<mimebase.cf> defines C<MIMEBASE_ENCRYPTED_OPENED> with it,
scored 0.001.

=item eval:mimebase_incomplete()

True when the analysis stopped at one of the library's limits (URLs, depth, entities, decoded
bytes): some links of the message may be missing from the URI list. C<mimebase.cf> defines
C<MIMEBASE_INCOMPLETE> with it, scored 0.001.

=back

=head1 SEE ALSO

C<README.md> beside this file (installing and testing), mimebase's C<docs/GUIDE.md>,
L<Mail::SpamAssassin::Plugin::PDFInfo> (another plugin that adds URIs),
L<Mail::SpamAssassin::Conf> (C<blocklist_uri_host>, C<uri>).

=cut

package Mail::SpamAssassin::Plugin::Mimebase;

use strict;
use warnings;
use re 'taint';

use Mail::SpamAssassin::Plugin;
use Mail::SpamAssassin::Logger qw(dbg log_message);
use Mail::SpamAssassin::Util qw(untaint_file_path);
use Mail::SpamAssassin::Constants qw(MAX_URI_LENGTH);

our @ISA = qw(Mail::SpamAssassin::Plugin);
our $VERSION = '0.1.0';

# The library's status codes (mimebase_status in mimebase.h).
use constant {
  MIMEBASE_OK              => 0,
  MIMEBASE_ERROR_NULL      => 1,
  MIMEBASE_ERROR_INVALID   => 2,
  MIMEBASE_ERROR_TOO_LARGE => 3,
  MIMEBASE_ERROR_INTERNAL  => 4,
};
my @STATUS_NAMES = qw(ok null_pointer invalid too_large internal_error);

# The fields of mimebase_url that are strings, in the struct's order.
my @URL_STRINGS = qw(part source reference resolved unresolved base base_source target_part);

# The default of mimebase_max_size: the library's own default (64 MiB).
use constant DEFAULT_MAX_SIZE => 67108864;

# Loaded libraries by path, for the life of the process: { functions, version } or { error }.
# spamd loads the library in its parent, and its children inherit it.
my %LIBRARIES;

sub new {
  my ($class, $mailsa) = @_;
  $class = ref($class) || $class;
  my $self = $class->SUPER::new($mailsa);
  bless($self, $class);

  $self->set_config($mailsa->{conf});
  $self->register_eval_rule('mimebase_base_decided', $Mail::SpamAssassin::Conf::TYPE_BODY_EVALS);
  $self->register_eval_rule('mimebase_incomplete', $Mail::SpamAssassin::Conf::TYPE_BODY_EVALS);
  $self->register_eval_rule('mimebase_attachment_link', $Mail::SpamAssassin::Conf::TYPE_BODY_EVALS);
  $self->register_eval_rule('mimebase_encrypted_opened', $Mail::SpamAssassin::Conf::TYPE_BODY_EVALS);

  # Before every plugin and rule that reads the URI list (PerMsgStatus recommends -10 for a
  # plugin that calls add_uri_detail_list): URIDNSBL, HashBL, DecodeShortURLs read it later,
  # in check_dnsbl, and uri rules and WLBLEval in the rule checks.
  $self->register_method_priority('parsed_metadata', -10);

  return $self;
}

sub set_config {
  my ($self, $conf) = @_;
  my @cmds;

  push(@cmds, {
    setting => 'mimebase_library',
    is_admin => 1,
    default => 'libmimebase.so.0',
    type => $Mail::SpamAssassin::Conf::CONF_TYPE_STRING,
  });

  push(@cmds, {
    setting => 'mimebase_resolver',
    is_admin => 1,
    default => 'whatwg',
    type => $Mail::SpamAssassin::Conf::CONF_TYPE_STRING,
    code => sub {
      my ($self, $key, $value, $line) = @_;
      local $1;
      if (!defined $value || $value eq '') {
        return $Mail::SpamAssassin::Conf::MISSING_REQUIRED_VALUE;
      }
      if ($value !~ /^(whatwg|rfc3986|rfc1808)$/) {
        return $Mail::SpamAssassin::Conf::INVALID_VALUE;
      }
      $self->{mimebase_resolver} = $1;
    },
  });

  push(@cmds, {
    setting => 'mimebase_max_size',
    is_admin => 1,
    default => DEFAULT_MAX_SIZE,
    type => $Mail::SpamAssassin::Conf::CONF_TYPE_NUMERIC,
    code => sub {
      my ($self, $key, $value, $line) = @_;
      local $1;
      if (!defined $value || $value eq '') {
        return $Mail::SpamAssassin::Conf::MISSING_REQUIRED_VALUE;
      }
      if ($value !~ /^([1-9][0-9]{0,17})$/) {
        return $Mail::SpamAssassin::Conf::INVALID_VALUE;
      }
      $self->{mimebase_max_size} = $1 + 0;
    },
  });

  $conf->{parser}->register_commands(\@cmds);
}

# After the configuration is read (in spamd's parent, before it forks): load the library, so
# that a missing one is reported at start-up and `--lint`, and the children share it.
sub finish_parsing_end {
  my ($self, $opts) = @_;
  _library($opts->{conf}->{mimebase_library});
  return;
}

# The library at `path`, loaded on first use: a hash of its functions, or undef when it cannot
# be loaded (said once per process, as a warning).
sub _library {
  my ($path) = @_;
  $path = untaint_file_path($path);
  my $library = $LIBRARIES{$path} ||= _load($path);
  return $library->{error} ? undef : $library;
}

sub _load {
  my ($path) = @_;
  my $library = eval {
    # Loaded here rather than by `use`, so that SpamAssassin runs on without this plugin's
    # URLs, rather than failing to load it, where FFI::Platypus is missing.
    require FFI::Platypus;
    FFI::Platypus->VERSION('1.00');
    require FFI::Platypus::Buffer;
    require FFI::Platypus::DL;
    # Opened here first for dlopen's own reason when it fails; never closed, so that the
    # library stays for the life of the process.
    FFI::Platypus::DL::dlopen($path, FFI::Platypus::DL::RTLD_PLATYPUS_DEFAULT())
      or die FFI::Platypus::DL::dlerror() . "\n";
    my $ffi = FFI::Platypus->new(api => 2, lib => [$path]);
    my ($url_template, $url_size) = _url_layout($ffi);
    my $str_size = 2 * $ffi->sizeof('size_t');
    my %signatures = (
      mimebase_version          => [[] => 'string'],
      mimebase_options_new      => [[] => 'opaque'],
      mimebase_options_set      => [['opaque', 'string', 'size_t', 'string', 'size_t'] => 'int'],
      mimebase_analyze          => [['opaque', 'size_t', 'opaque', 'opaque*'] => 'int'],
      mimebase_report_free      => [['opaque'] => 'void'],
      mimebase_report_complete  => [['opaque'] => 'int'],
      mimebase_report_url_count => [['opaque'] => 'size_t'],
      mimebase_report_url       => [['opaque', 'size_t', "record($url_size)*"] => 'int'],
      mimebase_report_entity_count => [['opaque'] => 'size_t'],
      mimebase_report_entity_opened => [['opaque', 'size_t', "record($str_size)*"] => 'int'],
    );
    my %functions;
    foreach my $name (sort keys %signatures) {
      (my $short = $name) =~ s/^mimebase_//;
      $functions{$short} = $ffi->function($name => @{$signatures{$name}});
    }
    my $version = $functions{version}->call();
    {
      functions => \%functions, version => $version, options => {},
      url_template => $url_template, url_size => $url_size, str_size => $str_size,
    };
  };
  if (!$library) {
    my $error = $@ || 'unknown error';
    $error =~ s/\s+\z//;
    log_message('warn', "mimebase: cannot load libmimebase from \"$path\" ($error): "
      . "SpamAssassin goes on without mimebase's URLs");
    return { error => $error };
  }
  dbg("mimebase: loaded libmimebase %s from %s", $library->{version}, $path);
  return $library;
}

# The layout of mimebase_url (mimebase.h): eight mimebase_str (a pointer and a size_t each),
# then two ints, padded to the alignment of its widest member. Read with unpack rather than
# FFI::Platypus::Record, whose by-value record metadata is destroyed out of order at the end of
# the process and warns there. Returns the unpack template and the size in bytes, or dies
# where this platform lays the struct out otherwise.
sub _url_layout {
  my ($ffi) = @_;
  my %letters = (4 => 'L', 8 => 'Q');
  my ($pointer, $size_t, $int) = map { $ffi->sizeof($_) } qw(opaque size_t int);
  die "no pack letter for $pointer-byte pointers and $size_t-byte sizes\n"
    unless $pointer == $size_t && $letters{$pointer} && $ffi->sizeof('sint32') == $int;
  my $word = $letters{$pointer};
  my $size = 2 * $pointer * @URL_STRINGS + 2 * $int;
  $size += $pointer - $size % $pointer if $size % $pointer;
  return ("(${word}2)" . scalar(@URL_STRINGS) . ' l2', $size);
}

# The bytes of a mimebase_str (pointer, length) as a Perl string; undef for "none".
sub _string {
  my ($ptr, $len) = @_;
  return undef unless $ptr;
  return FFI::Platypus::Buffer::buffer_to_scalar($ptr, $len);
}

# The options object for this configuration, made once per process and kept: the library lets
# many analyses share one. Undef (said once, as a warning) when the library refuses a value.
sub _options {
  my ($library, $resolver, $max_size) = @_;
  my $key = "$resolver/$max_size";
  my $cached = $library->{options}->{$key};
  return $cached->{handle} if $cached;
  my $f = $library->{functions};
  my $handle = $f->{options_new}->call();
  die "mimebase_options_new returned NULL\n" unless $handle;
  my %values = (resolver => $resolver, max_message_bytes => $max_size);
  foreach my $name (sort keys %values) {
    my $value = "$values{$name}";
    my $status = $f->{options_set}->call($handle, $name, length($name), $value, length($value));
    next if $status == MIMEBASE_OK;
    # The values were checked when the configuration was read: a library that refuses one
    # is older than this plugin.
    log_message('warn', "mimebase: libmimebase refuses $name \"$value\" (status $status, "
      . ($STATUS_NAMES[$status] // 'unknown') . "): "
      . "SpamAssassin goes on without mimebase's URLs");
    $library->{options}->{$key} = { handle => undef };
    return undef;
  }
  $library->{options}->{$key} = { handle => $handle };
  return $handle;
}

sub parsed_metadata {
  my ($self, $opts) = @_;
  my $pms = $opts->{permsgstatus};
  # SpamAssassin's timing (the _TIMING_ tag, `spamd --timing`) shows this as "check_mimebase".
  my $timer = $self->{main}->time_method('check_mimebase');
  # Whatever happens in here, the message goes on through SpamAssassin.
  my $ok = eval { $self->_add_urls($pms); 1 };
  if (!$ok) {
    my $error = $@ || 'unknown error';
    $error =~ s/\s+\z//;
    log_message('warn', "mimebase: $error: this message goes on without mimebase's URLs");
  }
  return;
}

sub _add_urls {
  my ($self, $pms) = @_;
  my $conf = $pms->{conf};
  $pms->{mimebase} = { base_decided => [], in_files => [], stated => [], complete => 1 };

  my $library = _library($conf->{mimebase_library});
  if (!$library) {
    dbg("mimebase: libmimebase is not loaded, message not analyzed");
    return;
  }
  my $options = _options($library, $conf->{mimebase_resolver}, $conf->{mimebase_max_size});
  return unless $options;

  my $message = $pms->{msg}->get_pristine();
  my ($bytes, $length) = FFI::Platypus::Buffer::scalar_to_buffer($message);
  my $f = $library->{functions};
  my $report;
  my $status = $f->{analyze}->call($bytes, $length, $options, \$report);
  if ($status == MIMEBASE_ERROR_TOO_LARGE) {
    dbg("mimebase: message of %d bytes is over mimebase_max_size (%d), not analyzed",
      $length, $conf->{mimebase_max_size});
    return;
  }
  if ($status != MIMEBASE_OK || !$report) {
    die sprintf("libmimebase could not analyze the message (status %d, %s)",
      $status, $STATUS_NAMES[$status] // 'unknown');
  }

  # Copy what is needed out of the report, then free it whatever happens.
  my (@urls, $complete);
  my $read = eval {
    $complete = $f->{report_complete}->call($report);
    my $count = $f->{report_url_count}->call($report);
    for (my $index = 0; $index < $count; $index++) {
      my $record = "\0" x $library->{url_size};
      my $got = $f->{report_url}->call($report, $index, $record);
      die "mimebase_report_url($index) returned status $got\n" if $got != MIMEBASE_OK;
      my @fields = unpack($library->{url_template}, $record);
      my %strings;
      @strings{@URL_STRINGS} = map { [ @fields[2 * $_, 2 * $_ + 1] ] } 0 .. $#URL_STRINGS;
      my ($base_decided, $is_image) = @fields[2 * @URL_STRINGS, 2 * @URL_STRINGS + 1];
      # Only the strings used below are copied out of the report.
      my $resolved = _string(@{$strings{resolved}});
      next unless defined $resolved;
      push(@urls, {
        resolved => $resolved,
        source => _string(@{$strings{source}}) // '',
        part => _string(@{$strings{part}}) // '',
        base_source => _string(@{$strings{base_source}}),
        base_decided => $base_decided,
        is_image => $is_image,
      });
    }
    # The encrypted files opened with a password the message states (MIMEBASE_OPENED_STATED,
    # 2), by the part stating it.
    my $entities = $f->{report_entity_count}->call($report);
    my $word = $library->{str_size} == 16 ? 'Q' : 'L';
    for (my $index = 0; $index < $entities; $index++) {
      my $part = "\0" x $library->{str_size};
      next unless $f->{report_entity_opened}->call($report, $index, $part) == 2;
      push(@{$pms->{mimebase}->{stated}}, _string(unpack("${word}2", $part)) // '');
    }
    1;
  };
  my $error = $@;
  $f->{report_free}->call($report);
  die $error unless $read;

  $pms->{mimebase}->{complete} = $complete;
  my %added;
  foreach my $url (@urls) {
    my $uri = $url->{resolved};
    # As SpamAssassin's HTML parser does (Mail::SpamAssassin::HTML::canon_uri).
    $uri = substr($uri, 0, MAX_URI_LENGTH) if length($uri) > MAX_URI_LENGTH;
    my %types = (mimebase => 1);
    local $1;
    my $in_file = 0;
    if ($url->{source} =~ /^(pdf|calendar|shortcut|office):/) {
      # A link inside a file: clicked as a link, and of the file's kind (PDFInfo's type `pdf`).
      @types{'a', $1} = (1, 1);
      $in_file = 1;
    } elsif ($url->{source} =~ /^(?:html|svg):([A-Za-z][A-Za-z0-9]*)\@/) {
      $types{lc $1} = 1;
    } elsif ($url->{source} eq 'text') {
      $types{parsed} = 1;
    }
    # A link of a member of a ZIP archive (part `2!/page.html`).
    if (index($url->{part}, '!/') >= 0) {
      $types{archive} = 1;
      $in_file = 1;
    }
    if ($in_file) {
      push(@{$pms->{mimebase}->{in_files}}, $uri);
      dbg("mimebase: link inside a file: %s (%s, part %s)", $uri, $url->{source}, $url->{part});
    }
    $types{img} = 1 if $url->{is_image};
    if ($url->{base_decided}) {
      push(@{$pms->{mimebase}->{base_decided}}, $uri);
      dbg("mimebase: base-decided link: %s (%s, base from %s)",
        $uri, $url->{source}, $url->{base_source} // 'none');
    }
    my $key = join("\0", $uri, sort keys %types);
    next if $added{$key}++;
    $pms->add_uri_detail_list($uri, \%types, 'mimebase');
  }
  dbg("mimebase: %d URLs added to the URI list (%d decided by a base)%s",
    scalar(keys %added), scalar(@{$pms->{mimebase}->{base_decided}}),
    $complete ? '' : ', analysis incomplete (a limit was reached)');
  return;
}

sub mimebase_base_decided {
  my ($self, $pms) = @_;
  my $decided = $pms->{mimebase} ? $pms->{mimebase}->{base_decided} : undef;
  return 0 unless $decided && @$decided;
  $pms->test_log("URI: $decided->[0]");
  return 1;
}

sub mimebase_attachment_link {
  my ($self, $pms) = @_;
  my $found = $pms->{mimebase} ? $pms->{mimebase}->{in_files} : undef;
  return 0 unless $found && @$found;
  $pms->test_log("URI: $found->[0]");
  return 1;
}

sub mimebase_encrypted_opened {
  my ($self, $pms) = @_;
  my $stated = $pms->{mimebase} ? $pms->{mimebase}->{stated} : undef;
  return 0 unless $stated && @$stated;
  $pms->test_log("password stated in part $stated->[0]");
  return 1;
}

sub mimebase_incomplete {
  my ($self, $pms) = @_;
  return ($pms->{mimebase} && !$pms->{mimebase}->{complete}) ? 1 : 0;
}

1;
