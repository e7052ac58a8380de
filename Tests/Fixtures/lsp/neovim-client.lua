-- Drives flowspec-lsp from Neovim's own LSP client, run headless by NeovimClientTests: open a
-- spec, take the quick fix, type an edit, go to a definition, rename a state, shut down. Each
-- step waits for what the client shows and records it; the Swift test judges the record,
-- written as JSON to $FLOWSPEC_RESULT. Edits are made through Neovim's buffer API, so the
-- incremental changes the server receives are the ones Neovim computes.
local server = os.getenv('FLOWSPEC_LSP')
local spec = os.getenv('FLOWSPEC_SPEC')
local result_path = os.getenv('FLOWSPEC_RESULT')
local record = { steps = {} }

local function finish()
  local file = assert(io.open(result_path, 'w'))
  file:write(vim.fn.json_encode(record))
  file:close()
  vim.cmd('qall!')
end

-- Publications seen so far: a step that edits waits for one more, so that it never reads the
-- findings of the text before its edit.
local publications = 0
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(...)
  publish(...)
  publications = publications + 1
end

vim.cmd('edit ' .. vim.fn.fnameescape(spec))
local buffer = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = 'flowspec',
  cmd = { server },
  root_dir = vim.fn.fnamemodify(spec, ':h'),
  on_exit = function(code, signal) record.exit = { code = code, signal = signal } end,
})
vim.lsp.buf_attach_client(buffer, client_id)

-- Generous: the rest of the test suite may be running beside this on a small machine. A hang
-- still ends, here or at the Swift test's time limit.
local function wait(what, condition)
  if not vim.wait(60000, condition, 10) then error('timed out waiting for ' .. what) end
end

local function diagnostics()
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
    table.insert(found, { line = diagnostic.lnum, column = diagnostic.col, code = diagnostic.code,
      message = diagnostic.message })
  end
  table.sort(found, function(a, b) return a.line < b.line or (a.line == b.line and a.code < b.code) end)
  return found
end

-- The findings after the edit `edit` makes: it waits for a publication that follows it.
local function after(edit)
  local before = publications
  edit()
  wait('diagnostics after an edit', function() return publications > before end)
  return diagnostics()
end

-- The 0-based line and column of the first `text` in the buffer.
local function find(text)
  for row, line in ipairs(vim.api.nvim_buf_get_lines(buffer, 0, -1, false)) do
    local column = line:find(text, 1, true)
    if column then return row - 1, column - 1 end
  end
  error('no "' .. text .. '" in the buffer')
end

local function steps()
  wait('the first diagnostics', function() return publications > 0 end)
  record.steps.opened = diagnostics()

  -- The quick fix for the misspelt target, applied the way Neovim applies a workspace edit.
  local row, column = find('hoem')
  local fix = nil
  for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
    if diagnostic.lnum == row then
      -- The finding as the server sent it (the spec is ASCII: byte columns are UTF-16 ones).
      fix = { message = diagnostic.message, code = diagnostic.code, range = {
        start = { line = diagnostic.lnum, character = diagnostic.col },
        ['end'] = { line = diagnostic.end_lnum, character = diagnostic.end_col } } }
    end
  end
  local answers = vim.lsp.buf_request_sync(buffer, 'textDocument/codeAction', {
    textDocument = vim.lsp.util.make_text_document_params(buffer),
    range = { start = { line = row, character = column }, ['end'] = { line = row, character = column + 4 } },
    context = { diagnostics = { fix } },
  }, 60000)
  local action = answers[client_id].result[1]
  record.steps.quickFixTitle = action.title
  record.steps.fixed = after(function() vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16') end)

  -- A typed edit inside a line: a fourth event that nothing uses.
  row, column = find('failed]')
  record.steps.typed = after(function()
    vim.api.nvim_buf_set_text(buffer, row, column + 6, row, column + 6, { ', retry' })
  end)

  -- Go to the definition of the target the quick fix wrote.
  row, column = find('done: home')
  vim.api.nvim_win_set_cursor(0, { row + 1, column + 7 })
  vim.lsp.buf.definition()
  wait('the jump to the definition', function() return vim.api.nvim_win_get_cursor(0)[1] ~= row + 1 end)
  local cursor = vim.api.nvim_win_get_cursor(0)
  record.steps.definition = { line = cursor[1] - 1, column = cursor[2] }

  -- Rename a state from its key, through Neovim's own rename (prepareRename, then rename).
  row, column = find('signingIn:')
  vim.api.nvim_win_set_cursor(0, { row + 1, column + 2 })
  local before = publications
  vim.lsp.buf.rename('authenticating')
  wait('the rename', function()
    return not table.concat(vim.api.nvim_buf_get_lines(buffer, 0, -1, false), '\n'):find('signingIn', 1, true)
  end)
  wait('diagnostics after the rename', function() return publications > before end)
  record.steps.renamedText = vim.api.nvim_buf_get_lines(buffer, 0, -1, false)
  record.steps.renamed = diagnostics()

  vim.lsp.stop_client(client_id)
  wait('the server to exit', function() return record.exit ~= nil end)
end

local ok, problem = pcall(steps)
if not ok then record.error = tostring(problem) end
finish()
