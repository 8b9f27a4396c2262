--[[ handout-quote.lua - a pandoc Lua filter: handouts quote the real files, never pasted copies.

A fenced code block with an `include` attribute is replaced, at render time, by code read from a
file of labs/, grading/ or common/ (paths from the repository root). Its body is ignored: leave it
empty. What is quoted:

    ```{include="grading/01-cpu-matvec/matvec.h" function="matvec_rows matvec_unrolled"}
    ```
        each named function: its prototype or its whole definition (to the matching brace), with
        the comment and declaration lines right above it; several names in file order, the lines
        between them kept when they are blank

    ```{include="labs/05-streams/streams.cu" from="TODO(stage 1)" to="pageable_destroy"}
    ```
        from the first line containing `from` to the next line containing `to` (plain text)

    ```{include="common/both/lab.h" lines="10-24"}
    ```
        a line range (fragile if the file changes: prefer the two forms above)

    ```{include="grading/01-cpu-matvec/matvec.h"}
    ```
        the whole file

The language comes from the extension (.c and .h: c; .cu: cuda) unless the block names a class.
Above the code goes one line saying where it came from. Anything that does not match (no such
file, function or text) stops the render with a message naming the handout: a quote that drifted
from its file is an error, not a stale copy. solutions/ and the planted and honest submissions are
refused: handouts ship in the student kit, and these are not in it.

The filter also gives `cuda` blocks the class `cpp`, so that pandoc (which has no CUDA syntax)
highlights them. ]]

local root = (PANDOC_SCRIPT_FILE or ''):match('^(.*)/common/[^/]*$') or '.'
local handout = (PANDOC_STATE and PANDOC_STATE.input_files[1]) or 'handout'

local function fail(path, msg)
  error(handout .. ': quote of ' .. path .. ': ' .. msg, 0)
end

-- Only what the student kit holds may be quoted.
local function check_path(path)
  if path:match('^/') or path:match('%.%.') then fail(path, 'give a path inside the repository, without ..') end
  if not (path:match('^labs/') or path:match('^grading/') or path:match('^common/')) then
    fail(path, 'only files of labs/, grading/ or common/ may be quoted')
  end
  if path:match('^grading/[^/]+/planted/') or path:match('^grading/[^/]+/honest/') then
    fail(path, 'planted and honest submissions are not in the student kit')
  end
end

local function read_lines(path)
  local f = io.open(root .. '/' .. path, 'r')
  if not f then fail(path, 'no such file') end
  local lines = {}
  for line in f:lines() do lines[#lines + 1] = line end
  f:close()
  return lines
end

local function is_comment(line)
  return line:match('^%s*/%*') or line:match('^%s*%*') or line:match('^%s*//') or line:match('%*/%s*$')
end

-- The last line of the declaration or definition starting at line i: a ';' after the parameter
-- list ends a prototype, a '{' opens a body that ends at its matching '}'. Comments and string
-- literals are skipped, so braces inside them do not count.
local function end_of(lines, i)
  local parens, braces, in_comment = 0, 0, false
  for k = i, #lines do
    local s = lines[k]:gsub('"[^"]*"', '""'):gsub("'[^']*'", "''")
    local j = 1
    while j <= #s do
      local two, c = s:sub(j, j + 1), s:sub(j, j)
      if in_comment then
        if two == '*/' then in_comment, j = false, j + 1 end
      elseif two == '/*' then in_comment, j = true, j + 1
      elseif two == '//' then break
      elseif c == '(' then parens = parens + 1
      elseif c == ')' then parens = parens - 1
      elseif c == '{' then braces = braces + 1
      elseif c == '}' then
        braces = braces - 1
        if braces == 0 then return k end
      elseif c == ';' and parens == 0 and braces == 0 then return k
      end
      j = j + 1
    end
  end
  return #lines
end

-- Lines first..last of one function: the top-level line naming it, followed by '(' (a line that
-- starts in column 0, not a comment or a preprocessor line), back over the declaration lines and
-- the comment right above it, forward to the end of its prototype or body.
local function function_span(lines, name, path)
  local pat = '%f[%w_]' .. name:gsub('%p', '%%%0') .. '%s*%('
  for i, line in ipairs(lines) do
    if line:match('^[%a_]') and line:match(pat) then
      local first = i
      while first > 1 and lines[first - 1]:match('^[%a_]') and not lines[first - 1]:match('[;{}]%s*$') do
        first = first - 1
      end
      while first > 1 and is_comment(lines[first - 1]) do first = first - 1 end
      return first, end_of(lines, i)
    end
  end
  fail(path, 'no function ' .. name)
end

-- The spans in file order, joined where only blank lines lie between them (those are kept);
-- other gaps show as "/* ... */". Returns the lines and the joined ranges.
local function join_spans(lines, spans)
  table.sort(spans, function(a, b) return a[1] < b[1] end)
  local out, ranges = {}, {}
  for _, sp in ipairs(spans) do
    local last = ranges[#ranges]
    local first = sp[1]
    if last and first <= last[2] + 1 then
      first = last[2] + 1
    elseif last then
      local blank = true
      for k = last[2] + 1, first - 1 do blank = blank and not lines[k]:match('%S') end
      if blank then first = last[2] + 1 else out[#out + 1] = '/* ... */' end
    end
    for k = first, sp[2] do out[#out + 1] = lines[k] end
    if last and first == last[2] + 1 then last[2] = math.max(last[2], sp[2])
    else ranges[#ranges + 1] = { first, sp[2] } end
  end
  return out, ranges
end

local function find_line(lines, text, start, path)
  for i = start, #lines do
    if lines[i]:find(text, 1, true) then return i end
  end
  fail(path, 'no line containing "' .. text .. '"' .. (start > 1 and ' after line ' .. (start - 1) or ''))
end

-- The code to quote, and the lines it came from (for the caption).
local function quoted(path, a)
  local lines = read_lines(path)
  local spans = {}
  if a['function'] then
    for name in a['function']:gmatch('[%w_]+') do spans[#spans + 1] = { function_span(lines, name, path) } end
  elseif a.from then
    local first = find_line(lines, a.from, 1, path)
    spans[1] = { first, a.to and find_line(lines, a.to, first, path) or first }
  elseif a.lines then
    local first, last = a.lines:match('^(%d+)%-(%d+)$')
    first, last = tonumber(first), tonumber(last)
    if not first or first < 1 or last < first or last > #lines then fail(path, 'bad line range ' .. a.lines) end
    spans[1] = { first, last }
  else
    spans[1] = { 1, #lines }
  end
  local out, ranges = join_spans(lines, spans)
  local where = {}
  for _, r in ipairs(ranges) do where[#where + 1] = r[1] == r[2] and tostring(r[1]) or r[1] .. '–' .. r[2] end
  local plural = (#ranges > 1 or ranges[1][1] ~= ranges[1][2]) and 'lines ' or 'line '
  return table.concat(out, '\n'), plural .. table.concat(where, ', ')
end

local lang_of = { c = 'c', h = 'c', cu = 'cuda', cuh = 'cuda' }

function CodeBlock(el)
  local a = el.attributes
  local path = a.include
  if not path then
    if el.classes:includes('cuda') and not el.classes:includes('cpp') then el.classes:insert('cpp') end
    return el
  end
  check_path(path)
  local text, where = quoted(path, a)
  local classes = #el.classes > 0 and el.classes or pandoc.List({ lang_of[path:match('%.(%w+)$') or ''] or 'c' })
  if classes:includes('cuda') then classes:insert('cpp') end
  local code = pandoc.CodeBlock(text, pandoc.Attr(el.identifier, classes, {}))
  local caption = pandoc.Div({ pandoc.Plain({ pandoc.Str('From '), pandoc.Code(path), pandoc.Str(', ' .. where .. ':') }) },
    pandoc.Attr('', { 'quote-source' }, {}))
  return pandoc.Div({ caption, code }, pandoc.Attr('', { 'quote' }, {}))
end
