import { mount } from 'svelte';
import App from './App.svelte';
import { connectBridge } from './lib/connect.js';
import { createRoot, rootContext } from './lib/root.js';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('Betdesk: the #app element is missing from index.html.');

export default mount(App, { target, context: rootContext(createRoot(connectBridge())) });
