// Checks the signed deliveries retrysim captures (policies/testdata/signed,
// kept byte for byte by go test) with the providers' npm verifiers, for the
// schemes no Go module the proxy serves can check: twilio-node's shared-key
// validation (the Webhooks configuration's HMAC_SHA256), and, as a second
// opinion beside stripe-go, stripe-node's parseEventNotification for thin
// events. Each must accept the delivery as captured and refuse it with one
// byte of the body changed.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import twilio from 'twilio';
import Stripe from 'stripe';

const here = dirname(fileURLToPath(import.meta.url));
const signed = join(here, '..', '..', 'policies', 'testdata', 'signed');
const read = (wire) => JSON.parse(readFileSync(join(signed, `${wire}.json`), 'utf8'));
const problems = [];

// twilio-node, as its webhook middleware does with a sharedKeySecret: the
// algorithm from X-Twilio-Webhooks-Signature-Settings, then validateRequest.
function twilioValid(req, body) {
  const settings = req.headers[twilio.SIGNATURE_SETTINGS_HEADER];
  const algorithm = twilio.getSignatureAlgorithm(settings);
  const params = Object.fromEntries(new URLSearchParams(body));
  return twilio.validateRequest(req.secret, req.headers['X-Twilio-Signature'], req.url, params, algorithm);
}
{
  const req = read('twilio-shared-key');
  if (twilio.getSignatureAlgorithm(req.headers[twilio.SIGNATURE_SETTINGS_HEADER]) !== twilio.HMAC_SHA256) {
    problems.push('twilio-shared-key: X-Twilio-Webhooks-Signature-Settings does not name HMAC_SHA256');
  }
  if (!twilioValid(req, req.body)) problems.push('twilio-shared-key: twilio.validateRequest refuses the captured delivery');
  if (twilioValid(req, req.body.replace('delivered', 'undelivered'))) problems.push('twilio-shared-key: twilio.validateRequest accepts a changed body');
}

// stripe-node's parseEventNotification, at the moment the delivery was signed.
function stripeThin(req, body) {
  const stripe = new Stripe('sk_test_retrysim');
  return stripe.parseEventNotification(body, req.headers['Stripe-Signature'], req.secret, 300, undefined, req.signed_at);
}
{
  const req = read('stripe-thin');
  try {
    const n = stripeThin(req, req.body);
    if (n.object !== 'v2.core.event' || !n.related_object) problems.push(`stripe-thin: parseEventNotification read ${JSON.stringify(n)}`);
  } catch (e) {
    problems.push(`stripe-thin: parseEventNotification refuses the captured delivery: ${e.message}`);
  }
  try {
    stripeThin(req, req.body.replace('v2.core.event', 'v2.core.evenT'));
    problems.push('stripe-thin: parseEventNotification accepts a changed body');
  } catch {
    // refused, as it must be
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('signed deliveries: twilio-shared-key and stripe-thin pass the npm verifiers');
