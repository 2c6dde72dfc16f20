import { withdrawalDays } from "../Domain/Withdrawal.js"

/**
 * The standard withdrawal form (förordning (2014:19) om formulär vid distansavtal, bilaga I B till
 * direktiv 2011/83/EU), in Swedish and English, for a service booked here. Plain HTML that prints
 * and reads without scripts; the consumer fills it in and sends it to the provider, whose contact
 * details the booking's terms and confirmation carry. Using it is optional: any clear message will do.
 */
export const withdrawalFormHtml = `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Standardformulär för utövande av ångerrätt / Model withdrawal form</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2.5rem}.line{border-bottom:1px solid #888;min-height:1.6rem;margin:.3rem 0 1rem}</style>
</head>
<body>
<section lang="sv">
<h1>Standardformulär för utövande av ångerrätt</h1>
<p>Fyll i och skicka detta formulär endast om du vill frånträda avtalet. Du har ${withdrawalDays} dagars ångerrätt från den dag bokningen bekräftades; det räcker att du skickar meddelandet innan fristen går ut. Du kan också avboka bokningen där du gjorde den, före starttiden.</p>
<p>Till (utförarens namn, adress och e-postadress, som de står i bokningsbekräftelsen):</p>
<div class="line"></div>
<p>Jag/Vi (*) meddelar härmed att jag/vi (*) frånträder mitt/vårt (*) avtal om tillhandahållande av följande tjänst (*):</p>
<div class="line"></div>
<p>Beställd den (*) / bokningsreferens:</p>
<div class="line"></div>
<p>Konsumentens/konsumenternas namn:</p>
<div class="line"></div>
<p>Konsumentens/konsumenternas adress:</p>
<div class="line"></div>
<p>Konsumentens/konsumenternas namnteckning (endast om formuläret skickas i pappersform):</p>
<div class="line"></div>
<p>Datum:</p>
<div class="line"></div>
<p>(*) Stryk det som inte gäller.</p>
</section>
<section lang="en">
<h2>Model withdrawal form</h2>
<p>Complete and return this form only if you wish to withdraw from the contract. You have ${withdrawalDays} days to withdraw from the day the booking was confirmed; it is enough to send your message before the period ends. You can also cancel the booking where you made it, before the start.</p>
<p>To (the provider's name, address and e-mail address, as the booking confirmation states them):</p>
<div class="line"></div>
<p>I/We (*) hereby give notice that I/We (*) withdraw from my/our (*) contract for the provision of the following service (*):</p>
<div class="line"></div>
<p>Ordered on (*) / booking reference:</p>
<div class="line"></div>
<p>Name of consumer(s):</p>
<div class="line"></div>
<p>Address of consumer(s):</p>
<div class="line"></div>
<p>Signature of consumer(s) (only if this form is notified on paper):</p>
<div class="line"></div>
<p>Date:</p>
<div class="line"></div>
<p>(*) Delete as appropriate.</p>
</section>
</body>
</html>
`
