import { type Examples, unique } from '../operation-fixtures.js';

/** The accounts context's examples (auth.php and users.php). */
export const EXAMPLES: Examples = {
  'POST auth.php': (f) => ({ body: { username: f.me.username, password: f.me.password } }),
  'POST auth.php action=login': (f) => ({ body: { username: f.me.username, password: f.me.password } }),
  'POST auth.php action=register': () => {
    const name = unique();
    return { body: { username: name, email: `${name}@example.test`, password: 'correct horse battery', cause: 'Antifa' } };
  },
  'POST auth.php action=forgot_password': (f) => ({ body: { email: f.me.email } }),
  'POST auth.php action=resend_confirmation': (f) => ({ body: { email: f.me.email } }),
  // No link was mailed (confirmation is off in the sweeps' server): the token is refused, never stored.
  'GET auth.php action=confirm_email': () => ({ query: { token: 'a-link-nobody-was-sent' } }),
  'GET users.php has=id': (f) => ({ query: { id: f.other.id } }),
  'PUT users.php': () => ({ body: { display_name: 'Someone' } }),
};
