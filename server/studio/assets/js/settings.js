// Settings kept in the browser: the bearer token the API calls carry.

const TOKEN_KEY = 'gomastra.studio.token';

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: settings last for the page only
  }
}

let memoryToken = '';

// getToken returns the saved bearer token ('' when none).
export function getToken() {
  const s = storage();
  if (!s) return memoryToken;
  return s.getItem(TOKEN_KEY) || '';
}

// setToken saves the token ('' removes it).
export function setToken(token) {
  const t = (token || '').trim();
  const s = storage();
  if (!s) {
    memoryToken = t;
    return;
  }
  if (t) s.setItem(TOKEN_KEY, t);
  else s.removeItem(TOKEN_KEY);
}

// initSettings wires the settings dialog: open on the button, save or
// clear the token on submit; onChange runs after a change.
export function initSettings({button, dialog, form, input, onChange}) {
  button.addEventListener('click', () => {
    dialog.returnValue = ''; // Escape closes without a value: a cancel
    input.value = getToken();
    dialog.showModal();
    input.focus();
  });
  dialog.addEventListener('close', () => {
    const action = dialog.returnValue;
    if (action === 'save') setToken(input.value);
    else if (action === 'clear') setToken('');
    else return;
    input.value = '';
    if (onChange) onChange();
  });
  form.addEventListener('submit', (e) => {
    // method="dialog" closes with the submitter's value.
    if (e.submitter) dialog.returnValue = e.submitter.value;
  });
}
